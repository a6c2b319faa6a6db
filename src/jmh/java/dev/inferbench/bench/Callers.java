package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.plant.Plant;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.Sharing;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.serve.ConcurrencyCheck;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.InputSpec;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.input.data.ImageFolder;
import dev.inferbench.metrics.CallBytes;
import dev.inferbench.metrics.SetupRecord;
import dev.inferbench.metrics.ServingThreads;
import dev.inferbench.quality.AccuracyProbe;
import dev.inferbench.quality.CellQuality;
import dev.inferbench.quality.FidelityProbe;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.variant.Variants;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A cell's model loaded for its callers: the first caller's engine is loaded, checked and probed the way every cell
 * is (load time, first inference, output sanity, fidelity to fp32, accuracy on real data); the others get their own
 * prepared input on the same engine ({@link Sharing#SHARED}) or an engine of their own ({@link Sharing#PER_CALLER}).
 * Caller 0 takes the cell's seeded inputs; caller k takes inputs of its own ({@link DataSource#batch(String,
 * dev.inferbench.input.InputSpec, List, int)}: synthetic ones drawn with seed + k, real ones other images or the batch's
 * samples in another order), so that a call that read another caller's outputs would be seen. With several callers the load ends with the concurrency check:
 * every caller runs at once and must get exactly what its input gives when run
 * alone ({@link ConcurrencyCheck}: rounds started together at a barrier, every batch size the cell's calls take); a
 * cell whose engine mixes callers' results fails instead of being measured. A cell with {@code -p state} feeds each
 * call's state outputs into its caller's next call ({@link dev.inferbench.engine.StateFeed}).
 */
public final class Callers implements AutoCloseable {
    private final List<Caller> callers = new ArrayList<>();
    private final AtomicInteger handedOut = new AtomicInteger();
    /** The engines' own threads (their pools), counted as serving threads while the engines are open. */
    private final List<Integer> engineThreads = new ArrayList<>();

    /** One caller: an engine (shared or its own) and its own prepared input. */
    public static final class Caller implements AutoCloseable {
        final InferenceEngine engine;
        final PreparedInput input;
        private final boolean ownsEngine;
        private float[][] alone;
        /** For dynamic batching: the caller's input at batch 1, 2, ... below the cell's, prepared by {@link #prepareSmallerBatches}. */
        private final List<PreparedInput> smaller = new ArrayList<>();
        /** What each smaller batch gives alone, for the concurrency check. */
        private final List<float[][]> smallerAlone = new ArrayList<>();
        private final int index;
        /** Which of this caller's calls have their heap bytes read (alloc.call); seeded by the caller's index. */
        private final CallBytes.Sampler bytes;

        Caller(int index, InferenceEngine engine, PreparedInput input, boolean ownsEngine) {
            this.index = index;
            this.bytes = CallBytes.sampler(index);
            this.engine = engine;
            this.input = input;
            this.ownsEngine = ownsEngine;
        }

        public Outputs run() throws BenchException {
            bytes.before();
            Outputs out = engine.run(input);
            bytes.after();
            return out;
        }

        /**
         * One call at batch {@code samples} (dynamic batching); the full input when no smaller batches were prepared
         * or {@code samples} is the cell's batch.
         */
        Outputs run(int samples) throws BenchException {
            PreparedInput in = samples > smaller.size() ? input : smaller.get(samples - 1);
            bytes.before();
            Outputs out = engine.run(in);
            bytes.after();
            return out;
        }

        @Override
        public void close() {
            // A loop, not forEach(PreparedInput::close): JMH runs the trial's teardown inside the last measured
            // iteration, and a method reference first used there spins a lambda class (kilobytes, counted per call).
            for (PreparedInput in : smaller) {
                in.close();
            }
            smaller.clear();
            input.close();
            if (ownsEngine) {
                engine.close();
            }
        }
    }

    private Callers() {
    }

    /** Loads the cell for its {@code cell.callers()} callers; on failure everything loaded so far is closed. */
    public static Callers load(CellSpec cell) throws BenchException {
        Callers c = new Callers();
        try {
            c.loadAll(cell);
            // Loading leaves its garbage on the heap (the model file parsed, its weights copied to the engine: 310 MiB
            // for resnet50 on djl-pytorch), and G1 had grown the heap to 1 GiB for it. Collected here, the heap is
            // handed back to the system and the measured iterations start from the model's own footprint; left, the
            // calls' garbage filled the grown young generation page by page without a collection, which read as
            // mem.rss growing by 3 GiB per 10k calls for seven iterations and then stopping.
            System.gc();
            return c;
        } catch (BenchException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void loadAll(CellSpec cell) throws BenchException {
        CellQuality.clear();
        Path file = Variants.ensure(cell.modelName(), cell.modelFile(), cell.precision(), cell.model().inputs(),
                Variants.calibrationSeed(cell.inputSeed()), System.out);
        if (cell.engine() == EngineKind.STUB) {
            System.out.println(Plant.ofProperty().describe());
        }
        SetupRecord.loadStarting();
        Set<Integer> before = ServingThreads.threads();
        InferenceEngine first = cell.engine().open(file, cell.device(), cell.settings());
        SetupRecord.loaded();
        Caller zero;
        try {
            List<HostTensor> batch = inputs(cell, 0, first);
            SetupRecord.tokensPerSample(tokensPerSample(batch, cell.seqLen()));
            zero = new Caller(0, first, first.prepare(batch, cell.state()), true);
        } catch (BenchException | RuntimeException e) {
            first.close();
            throw e;
        }
        callers.add(zero);
        long start = System.nanoTime();
        try (Outputs firstOutputs = zero.run()) {
            SetupRecord.firstInference(start);
            zero.alone = floats(firstOutputs);
            OutputCheck.verify(cell.modelName(), firstOutputs, cell.batchSize());
        }
        engineThreads.addAll(ServingThreads.adoptStartedSince(before)); // before the fidelity reference loads its own
        if (!EngineKind.isTorchScript(cell.modelFile()) && !cell.isFidelityReference()) {
            // loads the fp32 reference in this fork, after load.time and mem.native.model were taken; the fork's
            // mem.rss.peak.fork includes it, mem.rss.peak (the measured iterations') does not. The reference cell
            // itself agrees with itself by definition: not probed.
            CellQuality.record(FidelityProbe.measure(first, cell.inputs()));
        }
        if (!cell.syntheticData() && ImageFolder.looksLike(Path.of(cell.data()))) {
            CellQuality.record(AccuracyProbe.measure(first, ImageFolder.read(Path.of(cell.data())),
                    cell.modelName(), cell.batchSize()));
        }
        for (int k = 1; k < cell.callers(); k++) {
            boolean own = cell.sharing() == Sharing.PER_CALLER;
            Set<Integer> beforeOwn = ServingThreads.threads();
            InferenceEngine engine = own ? cell.engine().open(file, cell.device(), cell.settings()) : first;
            try {
                Caller caller = new Caller(k, engine, engine.prepare(inputs(cell, k, engine), cell.state()), own);
                callers.add(caller);
                try (Outputs out = caller.run()) {
                    caller.alone = floats(out);
                }
                if (own) {
                    engineThreads.addAll(ServingThreads.adoptStartedSince(beforeOwn));
                }
            } catch (BenchException | RuntimeException e) {
                if (own) {
                    engine.close();
                }
                throw e;
            }
        }
        if (callers.size() > 1) {
            checkConcurrent(cell);
        }
    }

    private static List<HostTensor> inputs(CellSpec cell, int caller, InferenceEngine engine) throws BenchException {
        return inputs(cell, cell.inputs(), caller, engine);
    }

    private static List<HostTensor> inputs(CellSpec cell, InputSpec spec, int caller, InferenceEngine engine)
            throws BenchException {
        return DataSource.batch(cell.data(), spec, engine.signature().inputs(), caller);
    }

    /** seqLen when an input holds token ids ([batch, seqLen] integers), else 0: the model is not a sequence model. */
    static int tokensPerSample(List<HostTensor> inputs, int seqLen) {
        for (HostTensor t : inputs) {
            boolean integer = t.type() == TensorSpec.DType.INT64 || t.type() == TensorSpec.DType.INT32;
            if (integer && t.shape().length == 2 && t.shape()[1] == seqLen) {
                return seqLen;
            }
        }
        return 0;
    }

    /**
     * For dynamic batching: gives every caller its input at each batch size below the cell's (drawn from the caller's
     * seed), so a call that gathered k requests runs at batch k. Each is run once here, so a model
     * that cannot take a smaller batch fails at load, not in the measured step.
     */
    void prepareSmallerBatches(CellSpec cell) throws BenchException {
        for (Caller c : callers) {
            for (int k = 1; k < cell.batchSize(); k++) {
                PreparedInput in = c.engine.prepare(inputs(cell, cell.inputs().withBatchSize(k), c.index, c.engine));
                c.smaller.add(in);
                try (Outputs out = c.engine.run(in)) {
                    c.smallerAlone.add(floats(out)); // before the check, which may release the outputs
                    OutputCheck.verify(cell.modelName(), out, k);
                }
            }
        }
        if (callers.size() > 1) {
            checkConcurrent(cell); // again, now over every batch size the callers' calls may take
        }
    }

    /**
     * Every caller at once, {@value ConcurrencyCheck#ROUNDS} rounds each started together at a barrier, over each batch
     * size prepared: each call's outputs must be exactly those its input gives alone.
     */
    private void checkConcurrent(CellSpec cell) throws BenchException {
        List<List<ConcurrencyCheck.Case>> cases = new ArrayList<>();
        for (Caller c : callers) {
            List<ConcurrencyCheck.Case> own = new ArrayList<>();
            own.add(new ConcurrencyCheck.Case("batch " + cell.batchSize(), () -> {
                try (Outputs out = c.run()) {
                    return floats(out);
                }
            }, c.alone));
            for (int k = 0; k < c.smaller.size(); k++) {
                int samples = k + 1;
                own.add(new ConcurrencyCheck.Case("batch " + samples, () -> {
                    try (Outputs out = c.run(samples)) {
                        return floats(out);
                    }
                }, c.smallerAlone.get(k)));
            }
            cases.add(own);
        }
        ConcurrencyCheck.Outcome o;
        try {
            o = ConcurrencyCheck.run(cases, ConcurrencyCheck.ROUNDS);
        } catch (BenchException e) {
            throw new BenchException("a caller failed in the concurrency check of " + cell.modelName() + ": "
                    + e.getMessage(), e);
        } catch (Exception e) {
            throw new BenchException("a caller failed in the concurrency check of " + cell.modelName() + ": " + e, e);
        }
        if (!o.passed()) {
            throw new BenchException(cell.callers() + " callers (" + cell.sharing().id() + ") of " + cell.modelName()
                    + " on " + cell.engine().id() + " do not get what one caller gets: " + o.found()
                    + "; expected every caller's outputs to equal its input's outputs run alone");
        }
        System.out.println("[inferbench] " + callers.size() + " callers (" + cell.sharing().id() + "), each on its own"
                + " input: " + o.rounds() + " rounds of calls started together at a barrier (" + o.overlapped()
                + " overlapped in time), " + cases.get(0).size() + " batch size(s), each call gave exactly its input's"
                + " outputs run alone" + (o.blind().isEmpty() ? "" : "; callers " + o.blind() + " have the same"
                + " input, so a mix-up between them could not be seen"));
    }

    static float[][] floats(Outputs out) {
        float[][] all = new float[out.count()][];
        for (int i = 0; i < all.length; i++) {
            all[i] = out.floats(i);
        }
        return all;
    }

    /** The first caller: the one whose engine was probed. */
    Caller first() {
        return callers.get(0);
    }

    /** The next caller not yet handed to a thread. */
    public Caller next() {
        int i = handedOut.getAndIncrement();
        if (i >= callers.size()) {
            throw new IllegalStateException((i + 1) + " threads took callers of a cell loaded for " + callers.size()
                    + "; the fork's JMH threads must equal the cell's callers");
        }
        return callers.get(i);
    }

    List<Caller> all() {
        return callers;
    }

    @Override
    public void close() {
        SetupRecord.callsEnded(); // the memory sampler's readings end here, before the model is freed
        // JMH closes a cell inside its last measured iteration: what the engines' threads spent in it is kept first
        ServingThreads.retire(engineThreads);
        engineThreads.clear();
        for (int i = callers.size() - 1; i >= 0; i--) {
            callers.get(i).close();
        }
        callers.clear();
    }
}
