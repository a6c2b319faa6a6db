package dev.inferbench.engine;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.TranslateException;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A model loaded through Deep Java Library and called the way DJL users call one: a {@code Predictor<NDList,
 * NDList>} with DJL's NoopTranslator. Inputs become engine NDArrays once, in {@link #prepare}, each with its own
 * predictor (DJL's predictors are not thread-safe; its advice is one per thread on a shared model), so that callers on
 * several threads share the model, each with its own prepared input. Each {@link #run}
 * opens a sub-manager and lends it the inputs, because DJL attaches every array an engine creates (intermediates
 * and outputs) to the manager of the first input: without it memory grows with every call. Closing the outputs
 * closes that sub-manager, which frees the call's arrays and hands the inputs back.
 */
final class DjlEngine implements InferenceEngine {
    private final String engineId;
    private final Path file;
    private final Model model;
    private final Supplier<Predictor<NDList, NDList>> predictors;
    private final ModelSignature signature;
    private final boolean outputsToHost;
    private final Runnable beforeClose;
    private boolean closed;

    /** @param outputsToHost copy outputs to host memory within the call (models placed on a GPU by libtorch) */
    DjlEngine(String engineId, Path file, Model model, Supplier<Predictor<NDList, NDList>> predictors,
              ModelSignature signature, boolean outputsToHost) {
        this(engineId, file, model, predictors, signature, outputsToHost, null);
    }

    /** @param beforeClose run once before the model closes (ends the fork's ORT profile), or null */
    DjlEngine(String engineId, Path file, Model model, Supplier<Predictor<NDList, NDList>> predictors,
              ModelSignature signature, boolean outputsToHost, Runnable beforeClose) {
        this.beforeClose = beforeClose;
        this.engineId = engineId;
        this.file = file;
        this.model = model;
        this.predictors = predictors;
        this.signature = signature;
        this.outputsToHost = outputsToHost;
    }

    @Override
    public ModelSignature signature() {
        return signature;
    }

    @Override
    public PreparedInput prepare(List<HostTensor> inputs) throws BenchException {
        checkOpen();
        NDManager manager = model.getNDManager().newSubManager();
        try {
            return new DjlInput(manager, arrays(manager, inputs, engineId, file), predictors.get());
        } catch (BenchException | RuntimeException e) {
            manager.close();
            throw e;
        }
    }

    /** The inputs as engine arrays under {@code manager}, named as the model's inputs. */
    static NDList arrays(NDManager manager, List<HostTensor> inputs, String engineId, Path file) throws BenchException {
        try {
            NDList list = new NDList(inputs.size());
            for (HostTensor t : inputs) {
                NDArray array = manager.create(t.data().duplicate().rewind(), new Shape(t.shape()), dataType(t, file));
                array.setName(t.name());
                list.add(array);
            }
            return list;
        } catch (RuntimeException e) {
            throw new BenchException("engine '" + engineId + "' cannot create its input arrays for " + file + ": "
                    + OrtEngine.firstLine(e.getMessage()), e);
        }
    }

    private static DataType dataType(HostTensor t, Path file) throws BenchException {
        return switch (t.type()) {
            case FLOAT32 -> DataType.FLOAT32;
            case INT64 -> DataType.INT64;
            case INT32 -> DataType.INT32;
            case FLOAT16 -> DataType.FLOAT16;
            case BOOL -> DataType.BOOLEAN;
            case UINT8 -> DataType.UINT8;
            case INT8 -> DataType.INT8;
            case BFLOAT16, OTHER -> throw new BenchException("input '" + t.name() + "' of " + file
                    + " has an unsupported type; expected float32, float16, int64, int32, bool, uint8 or int8");
        };
    }

    @Override
    public Outputs run(PreparedInput input) throws BenchException {
        checkOpen();
        if (!(input instanceof DjlInput in) || in.closed) {
            throw new BenchException("input prepared by another engine or closed; expected an open one from engine '"
                    + engineId + "'");
        }
        NDManager call = in.manager.newSubManager();
        try {
            in.arrays.tempAttach(call);
            NDList out = in.predictor.predict(in.arrays);
            // libtorch runs CUDA kernels asynchronously: copying the outputs to the host waits for them, and is what
            // a caller reading results pays (ORT's CUDA provider returns host tensors already).
            return new DjlOutputs(outputsToHost ? out.toDevice(ai.djl.Device.cpu(), false) : out, call);
        } catch (TranslateException | RuntimeException e) {
            call.close();
            throw new BenchException("engine '" + engineId + "' failed to run " + file + " on inputs "
                    + describe(in.arrays) + ": " + rootMessage(e) + "; expected inputs matching the model's forward()", e);
        }
    }

    private static String describe(NDList arrays) {
        StringBuilder sb = new StringBuilder("[");
        for (NDArray a : arrays) {
            sb.append(sb.length() > 1 ? ", " : "").append(a.getName()).append(':')
                    .append(a.getDataType().name().toLowerCase(Locale.ROOT)).append(a.getShape());
        }
        return sb.append(']').toString();
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return OrtEngine.firstLine(t.getMessage() != null ? t.getMessage() : t.toString());
    }

    /** The model's manager and a predictor of its own, for {@link DjlDecoder}'s step loop. */
    NDManager manager() {
        checkOpen();
        return model.getNDManager();
    }

    Predictor<NDList, NDList> newPredictor() {
        checkOpen();
        return predictors.get();
    }

    /** Arrays alive under the model's manager (weights, prepared inputs, anything leaked by a call). */
    int managedArrays() {
        return model.getNDManager().getManagedArrays().size();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (beforeClose != null) {
            beforeClose.run();
        }
        model.close();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("engine '" + engineId + "' is closed");
        }
    }

    private static final class DjlInput implements PreparedInput {
        private final NDManager manager;
        private final NDList arrays;
        private final Predictor<NDList, NDList> predictor;
        private boolean closed;

        DjlInput(NDManager manager, NDList arrays, Predictor<NDList, NDList> predictor) {
            this.manager = manager;
            this.arrays = arrays;
            this.predictor = predictor;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                predictor.close();
                manager.close();
            }
        }
    }

    private static final class DjlOutputs implements Outputs {
        private final NDList arrays;
        private final NDManager call;
        private boolean closed;

        DjlOutputs(NDList arrays, NDManager call) {
            this.arrays = arrays;
            this.call = call;
        }

        @Override
        public int count() {
            return arrays.size();
        }

        @Override
        public long[] shape(int index) {
            return arrays.get(index).getShape().getShape();
        }

        @Override
        public float[] floats(int index) {
            NDArray a = arrays.get(index);
            return a.getDataType() == DataType.FLOAT32 ? a.toFloatArray() : new float[0];
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                call.close();
            }
        }
    }
}
