package dev.inferbench.input;

import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.Half;
import dev.inferbench.BenchException;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.model.ModelFormat;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded synthetic inputs shaped from a model's signature; the same seed gives the same batch on every engine.
 * By element type: float32 and float16 uniform in [-1, 1); uint8 uniform in [0, 256) (pixels), int8 in [-128, 128);
 * bool all true
 * (masks). Integer inputs: those named like a mask all 1, those named like token types or segments all 0, the
 * rest (token ids) uniform in [0, tokenRange): the model's vocabulary, or {@value #TOKEN_RANGE} when the file does
 * not record one (every vocabulary is at least that large). An input with a {@code -p values} rule holds what the rule
 * says instead ({@link InputValues}); a scalar input (rank 0) is one value, not one per sample.
 */
public final class SyntheticInputs {
    public static final int TOKEN_RANGE = 100;

    private SyntheticInputs() {
    }

    /**
     * The inputs a cell measures: shapes from the model's signature, batch and seqLen, and {@code model.NAME.inputs};
     * token ids within the vocabulary the file records. The benchmark and the operator profile pass both use this.
     */
    public static List<HostTensor> forModel(InputSpec spec, List<TensorSpec> inputs) throws BenchException {
        // only an ONNX file tells its vocabulary; a TorchScript file is libtorch's to read
        int tokens = ModelFormat.of(spec.file()) == ModelFormat.TORCHSCRIPT ? TOKEN_RANGE
                : OnnxSummary.read(spec.file()).vocab().orElse(TOKEN_RANGE);
        return create(spec.model(), inputs, new InputShapes(spec.model(), spec.perSample(), spec.batchSize(),
                spec.seqLen()), tokens, spec.seed(), spec.values());
    }

    /** With the fallback token range. */
    public static List<HostTensor> create(String model, List<TensorSpec> inputs, Map<String, long[]> perSample,
                                          int batch, int seqLen, long seed) throws BenchException {
        return create(model, inputs, new InputShapes(model, perSample, batch, seqLen), TOKEN_RANGE, seed);
    }

    public static List<HostTensor> create(String model, List<TensorSpec> inputs, InputShapes shapes, int tokenRange,
                                          long seed) throws BenchException {
        return create(model, inputs, shapes, tokenRange, seed, InputValues.DEFAULT);
    }

    public static List<HostTensor> create(String model, List<TensorSpec> inputs, InputShapes shapes, int tokenRange,
                                          long seed, InputValues values) throws BenchException {
        List<HostTensor> out = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (TensorSpec spec : inputs) {
            long[] shape = shapes.resolve(spec, inputs);
            int n = elements(model, spec, shape);
            InputValues.Rule rule = values.rule(spec.name());
            if (rule != null) {
                out.add(ValueFill.tensor(model, spec, shape, n, rule, rnd));
                continue;
            }
            ByteBuffer bytes = ByteBuffer.allocateDirect(n * Math.max(1, spec.type().bytes())).order(ByteOrder.nativeOrder());
            String lower = spec.name().toLowerCase(Locale.ROOT);
            long fixed = lower.contains("mask") ? 1 : lower.contains("token_type") || lower.contains("segment") ? 0 : -1;
            switch (spec.type()) {
                case FLOAT32 -> {
                    var f = bytes.asFloatBuffer();
                    for (int i = 0; i < n; i++) {
                        f.put(i, (float) (rnd.nextDouble() * 2 - 1));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, f));
                }
                case FLOAT16 -> {
                    var h = bytes.asShortBuffer();
                    for (int i = 0; i < n; i++) {
                        h.put(i, Half.fromFloat((float) (rnd.nextDouble() * 2 - 1)));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, h));
                }
                case INT64 -> {
                    var l = bytes.asLongBuffer();
                    for (int i = 0; i < n; i++) {
                        l.put(i, fixed >= 0 ? fixed : rnd.nextInt(tokenRange));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, l));
                }
                case INT32 -> {
                    var b = bytes.asIntBuffer();
                    for (int i = 0; i < n; i++) {
                        b.put(i, fixed >= 0 ? (int) fixed : rnd.nextInt(tokenRange));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, b));
                }
                case BOOL, UINT8, INT8 -> {
                    for (int i = 0; i < n; i++) {
                        bytes.put(i, (byte) (spec.type() == DType.BOOL ? 1 : rnd.nextInt(256)));
                    }
                    out.add(new HostTensor(spec.name(), spec.type(), shape, bytes));
                }
                default -> throw new BenchException("model '" + model + "' input '" + spec.name()
                        + "' has a type inferbench cannot synthesize; expected float32, float16, int64, int32, bool,"
                        + " uint8 or int8");
            }
        }
        return out;
    }

    /** Whether the input's {@code -p values} rule fits it: its type and shape; nothing is made. */
    public static void checkValues(String model, TensorSpec spec, long[] shape, InputValues values)
            throws BenchException {
        InputValues.Rule rule = values.rule(spec.name());
        if (rule != null) {
            ValueFill.check(model, spec, shape, rule);
        }
    }

    /** Direct buffers are indexed by int: a batch must fit in 2 GB per input. */
    private static int elements(String model, TensorSpec spec, long[] shape) throws BenchException {
        double count = 1;
        for (long d : shape) {
            count *= d;
        }
        double bytes = count * Math.max(1, spec.type().bytes());
        if (bytes > Integer.MAX_VALUE) {
            throw new BenchException(String.format(Locale.ROOT,
                    "model '%s' input '%s' of shape %s needs %.1f GB; expected at most 2 GB per input (smaller batchSize)",
                    model, spec.name(), Arrays.toString(shape), bytes / 1e9));
        }
        return (int) count;
    }
}
