package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.plant.Plant;
import dev.inferbench.plant.TailPlant;
import dev.inferbench.tensor.HostTensor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code stub} engine: a call whose cost is planted ({@link Plant}), so that each figure inferbench reports can be
 * read on a workload whose true value is known. It loads the model on ONNX Runtime only to answer what the harness
 * checks at load (the signature, and each prepared input's outputs, computed once by ORT in {@link #prepare}); a call
 * then does the planted work and returns those outputs, held since, without allocating anything else. Not a
 * measurement of any engine: a calibration.
 */
final class StubEngine implements InferenceEngine {
    private final OrtEngine reference;
    private final Plant plant;
    /** The causes of slow calls planted for {@code --tail}'s calibration ({@link TailPlant}); none by default. */
    private final TailPlant tails;
    /** What the load planted and the engine holds until it closes (native buffer, heap arrays), or null. */
    private Object held;
    private final AtomicLong calls = new AtomicLong();
    /** Where the planted allocation is kept, so that it cannot be removed as dead (escape analysis). */
    private volatile Object sink;

    private StubEngine(OrtEngine reference, Plant plant, TailPlant tails) {
        this.reference = reference;
        this.plant = plant;
        this.tails = tails;
    }

    static StubEngine open(Path model, Device device, EngineSettings settings) throws BenchException {
        Plant plant = Plant.ofProperty();
        TailPlant tails = TailPlant.ofProperty();
        StubEngine engine = new StubEngine(OrtEngine.open(model, device, settings), plant, tails);
        engine.held = plant.load();
        return engine;
    }

    @Override
    public ModelSignature signature() {
        return reference.signature();
    }

    @Override
    public PreparedInput prepare(List<HostTensor> inputs) throws BenchException {
        try (PreparedInput in = reference.prepare(inputs); Outputs out = reference.run(in)) {
            List<long[]> shapes = new ArrayList<>();
            List<float[]> values = new ArrayList<>();
            for (int i = 0; i < out.count(); i++) {
                shapes.add(out.shape(i).clone());
                values.add(out.floats(i));
            }
            return new Held(new HeldOutputs(shapes, values));
        }
    }

    @Override
    public Outputs run(PreparedInput input) throws BenchException {
        long n = calls.incrementAndGet();
        tails.before(n);
        sink = plant.call(n);
        tails.after(n);
        return ((Held) input).outputs();
    }

    @Override
    public void close() {
        held = null;
        reference.close();
    }

    private record Held(HeldOutputs outputs) implements PreparedInput {
        @Override
        public void close() {
        }
    }

    /** ORT's outputs for one prepared input, copied once; closing them frees nothing (they are the input's). */
    private record HeldOutputs(List<long[]> shapes, List<float[]> values) implements Outputs {
        @Override
        public int count() {
            return shapes.size();
        }

        @Override
        public long[] shape(int index) {
            return shapes.get(index).clone();
        }

        @Override
        public float[] floats(int index) {
            return values.get(index).clone();
        }

        @Override
        public void close() {
        }
    }
}
