package dev.inferbench.model;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.util.Arrays;
import java.util.Map;

/**
 * Turns a declared input shape into a concrete one. The first dimension is the batch. Other dynamic dimensions
 * are the sequence length ({@code seqLen}) for inputs of rank 2 ({@code [batch, seq]}) and for integer or bool
 * inputs (token ids, masks); anything else needs {@code model.NAME.inputs} (per-sample shape, batch left out),
 * which also wins over the file's shape when given.
 *
 * @param perSample shapes from {@code model.NAME.inputs}, by input name
 */
public record InputShapes(String model, Map<String, long[]> perSample, int batch, int seqLen) {
    /** The seqLen @Param's default, used where no cell gives one (calibration, verify). */
    public static final int DEFAULT_SEQ_LEN = 128;


    public long[] resolve(TensorSpec spec) throws BenchException {
        long[] declared = spec.shape();
        if (declared.length == 0) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' is a scalar; expected a batched tensor");
        }
        if (declared[0] > 0 && declared[0] != batch) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' has a fixed batch of "
                    + declared[0] + ", so batchSize " + batch + " cannot run; expected batchSize=" + declared[0]);
        }
        long[] override = perSample.get(spec.name());
        long[] full = new long[override != null ? override.length + 1 : declared.length];
        full[0] = batch;
        if (override != null) {
            System.arraycopy(override, 0, full, 1, override.length);
            return full;
        }
        boolean sequence = sequence(spec);
        for (int i = 1; i < declared.length; i++) {
            if (declared[i] > 0) {
                full[i] = declared[i];
            } else if (sequence) {
                full[i] = seqLen;
            } else {
                throw new BenchException("model '" + model + "' input '" + spec.name() + "' dimension " + i
                        + " of " + Arrays.toString(declared) + " is dynamic and not a sequence; set the per-sample shape"
                        + " with model.<name>.inputs=" + spec.name() + "=" + example(declared)
                        + " in benchmarks.properties (a file by path: register it as model.<name>.file=" + model + ")");
            }
        }
        return full;
    }

    /** Whether the input's dynamic dimensions are a sequence length: rank 2 ({@code [batch, seq]}) or token ids. */
    private static boolean sequence(TensorSpec spec) {
        long[] declared = spec.shape();
        return declared.length == 2 || spec.type() == DType.INT64 || spec.type() == DType.INT32
                || spec.type() == DType.BOOL;
    }

    /** Whether the input's shape takes {@code seqLen}: a sequence input with a dynamic dimension and no override. */
    public boolean usesSeqLen(TensorSpec spec) {
        long[] declared = spec.shape();
        if (perSample.containsKey(spec.name()) || !sequence(spec)) {
            return false;
        }
        for (int i = 1; i < declared.length; i++) {
            if (declared[i] <= 0) {
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
}
