package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code state} parameter of a cell: outputs fed back as inputs between calls, as a streaming model is run.
 * {@code stateN:state} copies output {@code stateN} of each call into input {@code state} of the next (Silero VAD's
 * recurrent state); several pairs are joined by {@code ;} ({@code hn:h;cn:c}). The first call takes the input's own
 * values (synthetic, or {@code -p values}); every later call the previous call's output. The copy is part of each
 * measured call, as it is of a streaming caller's.
 *
 * @param text as given, the cell's own record of it
 */
public record StateFeed(String text, List<Link> links) {
    public static final String NONE = "none";
    public static final StateFeed OFF = new StateFeed(NONE, List.of());

    /** Output {@code output} of a call becomes input {@code input} of the next. */
    public record Link(String output, String input) {
    }

    public StateFeed {
        links = List.copyOf(links);
    }

    public static StateFeed parse(String value) throws BenchException {
        String text = value == null ? NONE : value.strip();
        if (text.isEmpty() || text.equals(NONE)) {
            return OFF;
        }
        List<Link> links = new ArrayList<>();
        Set<String> inputs = new LinkedHashSet<>();
        for (String part : text.split(";", -1)) {
            int colon = TensorSpec.nameEnd(part);
            String output = colon < 0 ? "" : part.substring(0, colon).strip();
            String input = colon < 0 ? "" : part.substring(colon + 1).strip();
            if (output.isEmpty() || input.isEmpty()) {
                throw new BenchException("state '" + value + "' is not a list of OUTPUT:INPUT; expected e.g. -p state="
                        + "stateN:state (output stateN of each call is input state of the next), several joined by"
                        + " ';'");
            }
            if (!inputs.add(input)) {
                throw new BenchException("state '" + value + "' feeds input '" + input + "' twice; expected each input"
                        + " fed by one output");
            }
            links.add(new Link(output, input));
        }
        return new StateFeed(text, links);
    }

    public boolean isEmpty() {
        return links.isEmpty();
    }

    /**
     * Each link against the model's signature: the output and the input exist, and hold one element type; where
     * both declare every dimension, the same shape. A shape the file leaves open is checked on the first call.
     */
    public void check(String model, List<TensorSpec> inputs, List<TensorSpec> outputs) throws BenchException {
        for (Link link : links) {
            TensorSpec out = find(outputs, link.output());
            TensorSpec in = find(inputs, link.input());
            if (out == null) {
                throw new BenchException("state names output '" + link.output() + "', which model '" + model
                        + "' does not have; expected one of " + names(outputs) + " before the ':'");
            }
            if (in == null) {
                throw new BenchException("state names input '" + link.input() + "', which model '" + model
                        + "' does not have; expected one of " + names(inputs) + " after the ':'");
            }
            if (out.type() != in.type()) {
                throw new BenchException("state feeds output '" + out.name() + "' (" + out.type().label()
                        + ") of model '" + model + "' into input '" + in.name() + "' (" + in.type().label()
                        + "); expected an output of the input's type");
            }
            if (fixed(out.shape()) && fixed(in.shape()) && !Arrays.equals(out.shape(), in.shape())) {
                throw new BenchException("state feeds output '" + out.name() + "' " + Arrays.toString(out.shape())
                        + " of model '" + model + "' into input '" + in.name() + "' " + Arrays.toString(in.shape())
                        + "; expected an output of the input's shape");
            }
        }
    }

    private static boolean fixed(long[] shape) {
        return Arrays.stream(shape).allMatch(d -> d > 0);
    }

    private static TensorSpec find(List<TensorSpec> specs, String name) {
        for (TensorSpec s : specs) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static List<String> names(List<TensorSpec> specs) {
        return specs.stream().map(TensorSpec::name).toList();
    }
}
