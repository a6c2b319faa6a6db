package dev.inferbench.model;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a declared input shape into a concrete one. The first dimension is the batch, unless another dimension is
 * named like one ({@code [2, batch, 64]}: a recurrent state in PyTorch's layers-first layout), which then is; a scalar
 * (rank 0) has none and is one value for the whole batch. A name in {@code perSample} is either an input's name, whose
 * per-sample shape (batch left out) it gives and which wins over the file's, or a symbolic dimension's name
 * ({@code height}), whose size it gives wherever the file names a dimension so. An input whose first dimension the
 * file fixes may also be given its whole shape, batch included ({@code [2, -1, 128]}, a state whose first dimension is
 * its layers); batchSize then does not change it. Dynamic dimensions left open are the sequence length ({@code seqLen}) for inputs of rank 2
 * ({@code [batch, seq]}) and for integer or bool inputs (token ids, masks); anything else must be given, on the
 * command line ({@code -p shape=}) or in {@code model.NAME.inputs}.
 *
 * @param perSample per-sample shapes by input name and sizes (one number) by dimension name: the registry's
 *                  {@code model.NAME.inputs} with the cell's {@code -p shape} over it
 */
public record InputShapes(String model, Map<String, long[]> perSample, int batch, int seqLen) {
    /** The seqLen @Param's default, used where no cell gives one (calibration, verify). */
    public static final int DEFAULT_SEQ_LEN = 128;
    /** The cell parameter that sets shapes; refusals name it, as it is where a user fixes them. */
    public static final String FLAG = "-p shape=";

    /** The input's shape, its batch where {@link #batchAxis(TensorSpec)} says. */
    public long[] resolve(TensorSpec spec) throws BenchException {
        return resolve(spec, batchAxis(spec));
    }

    /** The input's shape, its batch where {@link #batchAxes} says among the model's inputs {@code all}. */
    public long[] resolve(TensorSpec spec, List<TensorSpec> all) throws BenchException {
        Integer axis = batchAxes(all).get(spec.name());
        return resolve(spec, axis == null ? batchAxis(spec) : axis);
    }

    private long[] resolve(TensorSpec spec, int axis) throws BenchException {
        long[] declared = spec.shape();
        long[] override = perSample.get(spec.name());
        if (declared.length == 0) {
            if (override != null && override.length > 0) {
                throw new BenchException("model '" + model + "' input '" + spec.name() + "' is a scalar; got the shape "
                        + text(override) + " for it; expected no shape (give its value with -p values="
                        + spec.name() + ":V)");
            }
            return new long[0];
        }
        if (override != null && override.length == declared.length && declared[0] > 0) {
            checkWhole(spec, override);
            return override.clone();
        }
        if (declared[axis] > 0 && declared[axis] != batch) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' of " + Arrays.toString(declared)
                    + " has a fixed batch of " + declared[axis] + ", so batchSize " + batch + " cannot run; expected"
                    + " batchSize=" + declared[axis] + (hasDynamic(declared) ? ", or its whole shape where "
                    + declared[axis] + " is no batch: " + FLAG + spec.name() + ":" + whole(declared) : ""));
        }
        long[] full = new long[declared.length];
        full[axis] = batch;
        if (override != null) {
            checkOverride(spec, override, axis);
            for (int i = 0, j = 0; i < declared.length; i++) {
                if (i != axis) {
                    full[i] = override[j++];
                }
            }
            return full;
        }
        boolean sequence = sequence(spec);
        for (int i = 0; i < declared.length; i++) {
            if (i == axis) {
                continue;
            }
            long[] named = named(spec, i);
            if (declared[i] > 0) {
                full[i] = declared[i];
            } else if (named != null) {
                full[i] = named[0];
            } else if (sequence) {
                full[i] = seqLen;
            } else {
                String dim = spec.dimName(i).isEmpty() ? "" : " ('" + spec.dimName(i) + "')";
                throw new BenchException("model '" + model + "' input '" + spec.name() + "' dimension " + i + dim
                        + " of " + Arrays.toString(declared) + " is dynamic and not a sequence; expected its size: "
                        + FLAG + spec.name() + ":" + example(declared, axis) + " (batch left out)"
                        + (dim.isEmpty() ? "" : " or " + FLAG + spec.dimName(i) + ":N"));
            }
        }
        return full;
    }

    /**
     * The dimension that holds the batch: the first one named like a batch ({@code batch}, {@code batch_size}) when
     * the first is not, else the first. A state declared {@code [2, batch, 64]} has its batch second.
     */
    public static int batchAxis(TensorSpec spec) {
        if (spec.shape().length == 0 || batchNamed(spec.dimName(0))) {
            return 0;
        }
        for (int i = 1; i < spec.shape().length; i++) {
            if (spec.shape()[i] <= 0 && batchNamed(spec.dimName(i))) {
                return i;
            }
        }
        return 0;
    }

    /**
     * Each input's batch dimension among the model's inputs: {@link #batchAxis(TensorSpec)}, except where an input's
     * first dimension is fixed while another input's batch is dynamic and the input has exactly one dynamic
     * dimension: that one is its batch (Silero VAD v5's {@code state: [2, ?, 128]} beside {@code input: [?, ?]}).
     */
    public static Map<String, Integer> batchAxes(List<TensorSpec> inputs) {
        boolean dynamicBatch = false;
        for (TensorSpec s : inputs) {
            dynamicBatch |= s.shape().length > 0 && s.shape()[batchAxis(s)] <= 0;
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        for (TensorSpec s : inputs) {
            int axis = batchAxis(s);
            long[] d = s.shape();
            if (dynamicBatch && d.length > 1 && d[axis] > 0) {
                int open = -1;
                int count = 0;
                for (int i = 0; i < d.length; i++) {
                    if (d[i] <= 0) {
                        open = i;
                        count++;
                    }
                }
                axis = count == 1 ? open : axis;
            }
            out.put(s.name(), axis);
        }
        return out;
    }

    private static boolean batchNamed(String dimName) {
        return dimName.toLowerCase(java.util.Locale.ROOT).contains("batch");
    }

    /** A whole shape given for an input: its rank, and its fixed dimensions kept. */
    private void checkWhole(TensorSpec spec, long[] given) throws BenchException {
        long[] declared = spec.shape();
        for (int i = 0; i < declared.length; i++) {
            if (declared[i] > 0 && declared[i] != given[i]) {
                throw new BenchException("model '" + model + "' input '" + spec.name() + "' dimension " + i + " is "
                        + declared[i] + " in the file; got " + given[i] + " in " + text(given) + "; expected e.g. "
                        + FLAG + spec.name() + ":" + whole(declared) + " (its whole shape) or " + FLAG + spec.name()
                        + ":" + example(declared, batchAxis(spec)) + " (batch left out)");
            }
        }
    }

    /** A per-sample shape given for an input: the file's rank less the batch, and its fixed dimensions kept. */
    private void checkOverride(TensorSpec spec, long[] override, int axis) throws BenchException {
        long[] declared = spec.shape();
        if (override.length != declared.length - 1) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' of " + Arrays.toString(declared)
                    + " got the shape " + text(override) + "; expected " + (declared.length - 1)
                    + " dimensions, batch left out (batchSize sets it), e.g. " + FLAG + spec.name() + ":"
                    + example(declared, axis) + (declared[0] > 0 ? ", or its whole shape " + whole(declared) : ""));
        }
        for (int i = 0, j = 0; i < declared.length; i++) {
            if (i == axis) {
                continue;
            }
            if (declared[i] > 0 && declared[i] != override[j]) {
                throw new BenchException("model '" + model + "' input '" + spec.name() + "' dimension " + i + " is "
                        + declared[i] + " in the file; got " + override[j] + " in " + text(override)
                        + "; expected e.g. " + FLAG + spec.name() + ":" + example(declared, axis));
            }
            j++;
        }
    }

    /** The size given for dimension {@code i} by its symbolic name, or null. */
    private long[] named(TensorSpec spec, int i) {
        String name = spec.dimName(i);
        long[] size = name.isEmpty() ? null : perSample.get(name);
        return size != null && size.length == 1 ? size : null;
    }

    /** Whether the input's dynamic dimensions are a sequence length: rank 2 ({@code [batch, seq]}) or token ids. */
    private static boolean sequence(TensorSpec spec) {
        long[] declared = spec.shape();
        return declared.length == 2 || spec.type() == DType.INT64 || spec.type() == DType.INT32
                || spec.type() == DType.BOOL;
    }

    /** Whether the input's shape takes {@code seqLen}: a sequence input with a dimension nothing else sets. */
    public boolean usesSeqLen(TensorSpec spec) {
        long[] declared = spec.shape();
        if (perSample.containsKey(spec.name()) || !sequence(spec)) {
            return false;
        }
        int axis = batchAxis(spec);
        for (int i = 0; i < declared.length; i++) {
            if (i != axis && declared[i] <= 0 && named(spec, i) == null) {
                return true;
            }
        }
        return false;
    }

    /** The per-sample shape to give, the batch's dimension left out; N for each dynamic one. */
    private static String example(long[] declared, int axis) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < declared.length; i++) {
            if (i != axis) {
                b.append(b.length() > 0 ? "x" : "").append(declared[i] > 0 ? Long.toString(declared[i]) : "N");
            }
        }
        return b.toString();
    }

    /** The whole shape to give, batch included; N for each dynamic dimension. */
    private static String whole(long[] declared) {
        return String.join("x", Arrays.stream(declared).mapToObj(d -> d > 0 ? Long.toString(d) : "N").toList());
    }

    private static boolean hasDynamic(long[] declared) {
        return Arrays.stream(declared).anyMatch(d -> d <= 0);
    }

    private static String text(long[] shape) {
        return shape.length == 0 ? "(none)" : String.join("x", Arrays.stream(shape).mapToObj(Long::toString).toList());
    }
}
