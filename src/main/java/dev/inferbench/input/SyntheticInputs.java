package dev.inferbench.input;

import dev.inferbench.tensor.HostTensor;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded synthetic inputs shaped from a model's signature: floats uniform in [-1, 1), integers (token ids) uniform
 * in [0, {@value #TOKEN_RANGE}). The same seed gives the same batch on every engine.
 */
public final class SyntheticInputs {
    static final int TOKEN_RANGE = 100;

    private SyntheticInputs() {
    }

    /**
     * @param perSample shapes without the batch dimension, by input name; needed where the model leaves a
     *                  non-batch dimension dynamic
     */
    public static List<HostTensor> create(String model, List<TensorSpec> inputs, Map<String, long[]> perSample,
                                          int batch, long seed) throws BenchException {
        List<HostTensor> out = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (TensorSpec spec : inputs) {
            long[] shape = shape(model, spec, perSample.get(spec.name()), batch);
            int n = elements(model, spec, shape);
            ByteBuffer bytes;
            switch (spec.type()) {
                case FLOAT32 -> {
                    bytes = ByteBuffer.allocateDirect(n * Float.BYTES).order(ByteOrder.nativeOrder());
                    FloatBuffer f = bytes.asFloatBuffer();
                    for (int i = 0; i < n; i++) {
                        f.put(i, (float) (rnd.nextDouble() * 2 - 1));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, f));
                }
                case INT64 -> {
                    bytes = ByteBuffer.allocateDirect(n * Long.BYTES).order(ByteOrder.nativeOrder());
                    LongBuffer l = bytes.asLongBuffer();
                    for (int i = 0; i < n; i++) {
                        l.put(i, rnd.nextInt(TOKEN_RANGE));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, l));
                }
                case INT32 -> {
                    bytes = ByteBuffer.allocateDirect(n * Integer.BYTES).order(ByteOrder.nativeOrder());
                    IntBuffer b = bytes.asIntBuffer();
                    for (int i = 0; i < n; i++) {
                        b.put(i, rnd.nextInt(TOKEN_RANGE));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, b));
                }
                default -> throw new BenchException("model '" + model + "' input '" + spec.name()
                        + "' has a type inferbench cannot synthesize; expected float32, int64 or int32");
            }
        }
        return out;
    }

    /** Direct buffers are indexed by int: a batch must fit in 2 GB per input. */
    private static int elements(String model, TensorSpec spec, long[] shape) throws BenchException {
        double count = 1;
        for (long d : shape) {
            count *= d;
        }
        double bytes = count * (spec.type() == TensorSpec.DType.INT64 ? Long.BYTES : Float.BYTES);
        if (bytes > Integer.MAX_VALUE) {
            throw new BenchException(String.format(Locale.ROOT,
                    "model '%s' input '%s' of shape %s needs %.1f GB; expected at most 2 GB per input (smaller batchSize)",
                    model, spec.name(), Arrays.toString(shape), bytes / 1e9));
        }
        return (int) count;
    }

    private static long[] shape(String model, TensorSpec spec, long[] override, int batch) throws BenchException {
        long[] declared = spec.shape();
        if (declared.length == 0) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' is a scalar; expected a batched tensor");
        }
        if (declared[0] > 0 && declared[0] != batch) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' has a fixed batch of "
                    + declared[0] + ", so batchSize " + batch + " cannot run; expected batchSize=" + declared[0]);
        }
        long[] sample = override != null ? override : Arrays.copyOfRange(declared, 1, declared.length);
        if (override == null && Arrays.stream(sample).anyMatch(d -> d <= 0)) {
            throw new BenchException("model '" + model + "' input '" + spec.name() + "' has a dynamic dimension "
                    + Arrays.toString(declared) + "; set its per-sample shape in benchmarks.properties, e.g. model."
                    + model + ".inputs=" + spec.name() + "=1x128");
        }
        long[] full = new long[sample.length + 1];
        full[0] = batch;
        System.arraycopy(sample, 0, full, 1, sample.length);
        return full;
    }
}
