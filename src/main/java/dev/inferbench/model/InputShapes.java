package dev.inferbench.model;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.util.Arrays;
import java.util.Map;

/**
 * Turns a declared input shape into a concrete one. The first dimension is the batch; a scalar (rank 0) has none and
 * is one value for the whole batch. A name in {@code perSample} is either an input's name, whose per-sample shape
 * (batch left out) it gives and which wins over the file's, or a symbolic dimension's name ({@code height}), whose
 * size it gives wherever the file names a dimension so. Dynamic dimensions left open are the sequence length
 * ({@code seqLen}) for inputs of rank 2 ({@code [batch, seq]}) and for integer or bool inputs (token ids, masks);
 * anything else must be given, on the command line ({@code -p shape=}) or in {@code model.NAME.inputs}.
 *
 * @param perSample per-sample shapes by input name and sizes (one number) by dimension name: the registry's
 *                  {@code model.NAME.inputs} with the cell's {@code -p shape} over it
 */
public record InputShapes(String model, Map<String, long[]> perSample, int batch, int seqLen) {
    /** The seqLen @Param's default, used where no cell gives one (calibration, verify). */
    public static final int DEFAULT_SEQ_LEN = 128;
    /** The cell parameter that sets shapes; refusals name it, as it is where a user fixes them. */
    public static final String FLAG = "-p shape=";

    public long[] resolve(TensorSpec spec) throws BenchException {
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
        if (declared[0] > 0 && declared[0] != batch) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' has a fixed batch of "
                    + declared[0] + ", so batchSize " + batch + " cannot run; expected batchSize=" + declared[0]);
        }
        long[] full = new long[declared.length];
        full[0] = batch;
        if (override != null) {
            checkOverride(spec, override);
            System.arraycopy(override, 0, full, 1, override.length);
            return full;
        }
        boolean sequence = sequence(spec);
        for (int i = 1; i < declared.length; i++) {
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
                        + FLAG + spec.name() + ":" + example(declared) + " (batch left out)"
                        + (dim.isEmpty() ? "" : " or " + FLAG + spec.dimName(i) + ":N"));
            }
        }
        return full;
    }

    /** A per-sample shape given for an input: the file's rank less the batch, and its fixed dimensions kept. */
    private void checkOverride(TensorSpec spec, long[] override) throws BenchException {
        long[] declared = spec.shape();
        if (override.length != declared.length - 1) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' of " + Arrays.toString(declared)
                    + " got the shape " + text(override) + "; expected " + (declared.length - 1)
                    + " dimensions, batch left out (batchSize sets it), e.g. " + FLAG + spec.name() + ":"
                    + example(declared));
        }
        for (int i = 1; i < declared.length; i++) {
            if (declared[i] > 0 && declared[i] != override[i - 1]) {
                throw new BenchException("model '" + model + "' input '" + spec.name() + "' dimension " + i + " is "
                        + declared[i] + " in the file; got " + override[i - 1] + " in " + text(override)
                        + "; expected e.g. " + FLAG + spec.name() + ":" + example(declared));
            }
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
        for (int i = 1; i < declared.length; i++) {
            if (declared[i] <= 0 && named(spec, i) == null) {
                return true;
            }
        }
        return false;
    }

    private static String example(long[] declared) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < declared.length; i++) {
            b.append(i > 1 ? "x" : "").append(declared[i] > 0 ? Long.toString(declared[i]) : "N");
        }
        return b.toString();
    }

    private static String text(long[] shape) {
        return shape.length == 0 ? "(none)" : String.join("x", Arrays.stream(shape).mapToObj(Long::toString).toList());
    }
}
