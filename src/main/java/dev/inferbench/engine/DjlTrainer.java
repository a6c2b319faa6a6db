package dev.inferbench.engine;

import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.GradientCollector;
import dev.inferbench.BenchException;
import dev.inferbench.ByteUnits;
import dev.inferbench.tensor.HostTensor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Training steps of a zoo model rendered on DJL's PyTorch engine ({@link GraphRenderer}, batch normalisation from the
 * batch): the forward pass inside DJL's {@code GradientCollector}, the loss, {@code backward}, then SGD on every
 * trained weight ({@code w -= lr * grad}, gradients zeroed), outside gradient recording. The loss is the mean square of
 * the model's first output (a regression towards zero): it needs no labels, and its backward pass runs through every
 * layer as any loss would. Like inference on DJL, each step's arrays live in a sub-manager closed when the step ends.
 */
final class DjlTrainer implements Trainer {
    /** Small, so that the weights stay near the trained ones over thousands of steps. */
    static final float LEARNING_RATE = 1e-6f;

    private final Path file;
    private final Model model;
    private final GraphRenderer renderer;
    private final Map<String, NDArray> trained;
    private final ModelSignature signature;
    private NDManager batchManager;
    private NDList batch;
    private boolean closed;

    DjlTrainer(Path file, Model model, GraphRenderer renderer, ModelSignature signature) {
        this.file = file;
        this.model = model;
        this.renderer = renderer;
        this.signature = signature;
        this.trained = renderer.trainable();
        trained.values().forEach(w -> w.setRequiresGradient(true));
    }

    @Override
    public ModelSignature signature() {
        return signature;
    }

    @Override
    public void prepare(List<HostTensor> inputs) throws BenchException {
        checkOpen();
        if (batchManager != null) {
            batchManager.close();
        }
        batchManager = model.getNDManager().newSubManager();
        batch = DjlEngine.arrays(batchManager, inputs, DjlPyTorchEngine.ID, file);
    }

    @Override
    public void step() throws BenchException {
        checkBatch();
        try (NDManager call = batchManager.newSubManager(); GradientCollector collector = recording()) {
            batch.tempAttach(call);
            collector.backward(loss(renderer.forward(batch, true)));
        } catch (RuntimeException e) {
            throw failed(e);
        }
        update();
    }

    private static NDArray loss(NDList outputs) {
        return outputs.head().square().mean();
    }

    /** SGD outside gradient recording, in place: no array is created, so nothing accumulates under the model. */
    private void update() throws BenchException {
        try {
            for (NDArray w : trained.values()) {
                try (NDArray g = w.getGradient()) {
                    w.subi(g.muli(LEARNING_RATE));
                }
                JniUtils.zeroGrad((PtNDArray) w);
            }
        } catch (RuntimeException e) {
            throw failed(e);
        }
    }

    @Override
    public TrainingMemory measureMemory() throws BenchException {
        checkBatch();
        Path dir;
        try {
            dir = Files.createTempDirectory("inferbench-torch-profile");
        } catch (IOException e) {
            throw new BenchException("cannot create a folder for libtorch's profile: " + e.getMessage(), e);
        }
        try {
            Path inference = dir.resolve("inference.json");
            Path forward = dir.resolve("forward.json");
            Path backward = dir.resolve("backward.json");
            double inferenceArrays;
            try (NDManager call = batchManager.newSubManager()) {
                batch.tempAttach(call);
                profiled(inference, () -> renderer.forward(batch, false));
                inferenceArrays = heldBytes(call, batch);
            }
            double forwardArrays;
            try (NDManager call = batchManager.newSubManager(); GradientCollector collector = recording()) {
                batch.tempAttach(call);
                NDArray loss = profiled(forward, () -> loss(renderer.forward(batch, true)));
                forwardArrays = heldBytes(call, batch);
                profiled(backward, () -> {
                    collector.backward(loss);
                    return loss;
                });
            }
            double gradients = 0;
            double weights = 0;
            for (NDArray w : trained.values()) {
                try (NDArray g = w.getGradient()) {
                    gradients += bytes(g);
                }
                weights += bytes(w);
            }
            update();
            return new TrainingMemory(ByteUnits.mib(TorchMemoryTrace.read(inference).peak()),
                    ByteUnits.mib(TorchMemoryTrace.read(forward).peak()), ByteUnits.mib(TorchMemoryTrace.read(backward).peak()),
                    ByteUnits.mib(gradients), ByteUnits.mib(weights), ByteUnits.mib(inferenceArrays), ByteUnits.mib(forwardArrays));
        } catch (RuntimeException e) {
            throw failed(e);
        } finally {
            deleteAll(dir);
        }
    }

    /** Gradients recorded until closed: a training step's forward and backward. */
    private static GradientCollector recording() {
        return Engine.getEngine(DjlPyTorchEngine.ENGINE).newGradientCollector();
    }

    /** {@code work} with libtorch's profiler on, memory included; its trace written to {@code trace}. */
    private static <T> T profiled(Path trace, Supplier<T> work) {
        JniUtils.startProfile(false, false, true);
        try {
            return work.get();
        } finally {
            JniUtils.stopProfile(trace.toString());
        }
    }

    /** Bytes of the arrays a call's manager holds, the batch it borrowed excepted. */
    private static double heldBytes(NDManager call, Collection<NDArray> borrowed) {
        Set<NDArray> skip = Collections.newSetFromMap(new IdentityHashMap<>());
        skip.addAll(borrowed);
        double sum = 0;
        for (var resource : call.getManagedArrays()) {
            if (!skip.contains(resource)) {
                sum += bytes(resource);
            }
        }
        return sum;
    }

    private static double bytes(NDArray a) {
        return (double) a.size() * a.getDataType().getNumOfBytes();
    }

    private static void deleteAll(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary folder left behind costs nothing
        }
    }

    private BenchException failed(RuntimeException e) {
        return new BenchException("engine '" + DjlPyTorchEngine.ID + "' failed a training step of " + file + ": "
                + DjlEngine.rootMessage(e) + "; expected a zoo model whose every operator has a gradient", e);
    }

    private void checkBatch() {
        checkOpen();
        if (batch == null) {
            throw new IllegalStateException("no batch prepared for training " + file);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("trainer of " + file + " is closed");
        }
    }

    /** Arrays alive under the model's manager (weights, the batch, anything a step left behind). */
    int managedArrays() {
        return model.getNDManager().getManagedArrays().size();
    }

    /** Every trained weight, flattened and in order, to see an update happen. */
    float[] weightValues() {
        List<float[]> parts = trained.values().stream().map(NDArray::toFloatArray).toList();
        float[] all = new float[parts.stream().mapToInt(p -> p.length).sum()];
        int at = 0;
        for (float[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            model.close();
        }
    }
}
