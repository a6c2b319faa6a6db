package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.input.InputValues;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.TensorSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The names a cell's {@code -p shape}, {@code -p values} and {@code -p state} give, against the model's inputs and
 * outputs: a typo would otherwise set nothing and measure the file's defaults under the cell's label, or fail in every
 * fork.
 */
final class CellInputs {
    private CellInputs() {
    }

    static void checkNames(String model, List<TensorSpec> inputs, List<TensorSpec> outputs, CellSpec cell)
            throws BenchException {
        checkNames(model, inputs, cell.shapes(), cell.values());
        cell.state().check(model, inputs, outputs);
    }

    static void checkNames(String model, List<TensorSpec> inputs, Map<String, long[]> shapes, InputValues values)
            throws BenchException {
        Set<String> inputNames = new LinkedHashSet<>();
        Set<String> dimNames = new LinkedHashSet<>();
        for (TensorSpec spec : inputs) {
            inputNames.add(spec.name());
            for (int i = 0; i < spec.shape().length; i++) {
                if (!spec.dimName(i).isEmpty()) {
                    dimNames.add(spec.dimName(i));
                }
            }
        }
        for (Map.Entry<String, long[]> e : shapes.entrySet()) {
            String name = e.getKey();
            if (inputNames.contains(name)) {
                continue;
            }
            if (!dimNames.contains(name)) {
                throw new BenchException("shape names '" + name + "', which model '" + model + "' has neither as an"
                        + " input nor as a dimension; expected an input of " + inputNames + " or a dimension of "
                        + dimNames);
            }
            if (e.getValue().length != 1) {
                throw new BenchException("shape gives dimension '" + name + "' of model '" + model + "' the shape "
                        + String.join("x", Arrays.stream(e.getValue()).mapToObj(Long::toString).toList())
                        + "; expected one size, e.g. " + name + ":" + e.getValue()[0]);
            }
        }
        for (String name : values.rules().keySet()) {
            if (!inputNames.contains(name)) {
                throw new BenchException("values names '" + name + "', which is not an input of model '" + model
                        + "'; expected one of " + inputNames);
            }
        }
    }

    /**
     * What the file suggests the cell may have left to synthetic values, one line each (the run goes on): a scalar
     * input given no value (a sample rate, a threshold), a float input whose open dimension took seqLen (audio
     * samples or frames, whose length a model may require), and an output named after an input with its type and
     * shape (Silero VAD's {@code stateN} beside {@code state}, {@code hn} beside {@code h}; the dimensions either
     * leaves open match any): a recurrent state not fed back.
     */
    static List<String> hints(String model, List<TensorSpec> inputs, List<TensorSpec> outputs, CellSpec cell) {
        List<String> out = new ArrayList<>();
        Set<String> fed = new LinkedHashSet<>();
        cell.state().links().forEach(l -> fed.add(l.input()));
        InputShapes shapes = new InputShapes(model, cell.model().inputs(), cell.batchSize(), cell.seqLen());
        for (TensorSpec in : inputs) {
            boolean floats = in.type() == TensorSpec.DType.FLOAT32 || in.type() == TensorSpec.DType.FLOAT16;
            if (floats && shapes.usesSeqLen(in)) {
                out.add("model '" + model + "' input '" + in.name() + "' " + Arrays.toString(in.shape()) + " takes"
                        + " seqLen (" + cell.seqLen() + ") for its open dimension; audio samples or frames may need a"
                        + " length of their own: -p shape=" + in.name() + ":N");
            }
            if (in.shape().length == 0 && cell.values().rule(in.name()) == null) {
                out.add("model '" + model + "' input '" + in.name() + "' is a scalar and holds a synthetic value; a"
                        + " setting such as a sample rate takes its own: -p values=" + in.name() + ":V");
            }
            if (fed.contains(in.name())) {
                continue;
            }
            for (TensorSpec o : outputs) {
                if (o.name().length() > in.name().length() && o.name().startsWith(in.name()) && o.type() == in.type()
                        && in.shape().length > 0 && compatible(o.shape(), in.shape())) {
                    out.add("model '" + model + "' output '" + o.name() + "' has the type and shape of input '"
                            + in.name() + "', as a recurrent state has; -p state=" + o.name() + ":" + in.name()
                            + " feeds each call's into the next (now every call starts from the same values)");
                    break;
                }
            }
        }
        return out;
    }

    /** Same rank, and every dimension both declare the same. */
    private static boolean compatible(long[] a, long[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] > 0 && b[i] > 0 && a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
}
