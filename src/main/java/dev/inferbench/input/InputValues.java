package dev.inferbench.input;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.HostTensor;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code values} parameter of a cell: what an input holds instead of the synthetic default.
 * {@code sr:16000} is a constant; {@code x:0..1} seeded uniform values from 0 up to 1 (integers: 0 to 1, both
 * included); {@code state:h0.npy} the array of a NumPy file (the input's whole shape, or one sample's, repeated over
 * the batch). Several inputs are joined by {@code ;}. The file is read once, when the cell is made, so that a bad file
 * is refused before any fork.
 *
 * @param text as given, the cell's own record of it
 */
public record InputValues(String text, Map<String, Rule> rules) {
    public static final String NONE = "none";
    public static final InputValues DEFAULT = new InputValues(NONE, Map.of());

    /** What one input holds. */
    public sealed interface Rule permits Constant, Range, Given {
    }

    public record Constant(double value) implements Rule {
    }

    public record Range(double low, double high) implements Rule {
    }

    /** @param tensor the file's array as read */
    public record Given(Path file, HostTensor tensor) implements Rule {
    }

    /** Reads a NumPy file as a host tensor; the data layer's reader, passed in so this layer needs none. */
    @FunctionalInterface
    public interface ArrayReader {
        HostTensor read(Path file, String name) throws BenchException;
    }

    public InputValues {
        rules = Collections.unmodifiableMap(new LinkedHashMap<>(rules));
    }

    public static InputValues parse(String value, ArrayReader reader) throws BenchException {
        String text = value == null ? NONE : value.strip();
        if (text.isEmpty() || text.equals(NONE)) {
            return DEFAULT;
        }
        Map<String, Rule> rules = new LinkedHashMap<>();
        for (String part : text.split(";", -1)) {
            int colon = TensorSpec.nameEnd(part);
            String name = colon < 0 ? "" : part.substring(0, colon).strip();
            String what = colon < 0 ? "" : part.substring(colon + 1).strip();
            if (name.isEmpty() || what.isEmpty()) {
                throw new BenchException("values '" + value + "' is not a list of input:value; expected e.g. -p values="
                        + "sr:16000, x:0..1 or x:x.npy, several joined by ';'");
            }
            if (rules.put(name, rule(value, name, what, reader)) != null) {
                throw new BenchException("values '" + value + "' gives '" + name + "' twice; expected each input once");
            }
        }
        return new InputValues(text, rules);
    }

    private static Rule rule(String value, String name, String what, ArrayReader reader) throws BenchException {
        if (what.toLowerCase(Locale.ROOT).endsWith(".npy")) {
            Path file;
            try {
                file = Path.of(what);
            } catch (InvalidPathException e) {
                throw new BenchException("values '" + value + "': '" + what + "' is not a file path; expected a .npy"
                        + " file", e);
            }
            return new Given(file, reader.read(file, name));
        }
        int dots = what.indexOf("..");
        try {
            if (dots < 0) {
                return new Constant(finite(Double.parseDouble(what)));
            }
            double low = finite(Double.parseDouble(what.substring(0, dots)));
            double high = finite(Double.parseDouble(what.substring(dots + 2)));
            if (low < high) {
                return new Range(low, high);
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException("values '" + value + "': '" + name + ":" + what + "' is neither a number, a range"
                + " LOW..HIGH with LOW < HIGH nor a .npy file; expected e.g. " + name + ":16000 or " + name + ":0..1");
    }

    private static double finite(double v) {
        if (!Double.isFinite(v)) {
            throw new NumberFormatException("not finite");
        }
        return v;
    }

    public Rule rule(String input) {
        return rules.get(input);
    }
}
