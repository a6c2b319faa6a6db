package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A batch run through ONNX Runtime with its session profiling on, each call also timed from Java, so that ORT's
 * own per-operator and {@code model_run} times can be set beside the time a caller sees. Kept apart from the
 * benchmarks: profiling changes what it measures, so it never runs in a timed fork.
 *
 * @param callNanos   Java-side wall time of each measured call (around {@link InferenceEngine#run})
 * @param profileJson ORT's profile of the whole session; its last {@code callNanos.length} model_run events are
 *                    the measured calls
 */
public record OrtProfiledRun(long[] callNanos, Path profileJson) {

    /** The batch to run, made once the model's signature is known. */
    public interface Batch {
        List<HostTensor> of(ModelSignature signature) throws BenchException;
    }

    /**
     * What is switched on for the measured calls only, never the warm-up (a sampling profiler, the JVM's counters):
     * {@code begin} just before the first measured call, {@code end} just after the last, before profiling ends.
     */
    public interface Window {
        Window NONE = new Window() {
            @Override
            public void begin() {
            }

            @Override
            public void end(int calls) {
            }
        };

        void begin() throws BenchException;

        /** @param calls the measured calls the window held */
        void end(int calls) throws BenchException;
    }

    /**
     * An engine whose ONNX Runtime session profiles, and how to end that profile (ORT writes the file then); ended
     * before the engine closes.
     */
    record Profiling(InferenceEngine engine, ProfileEnd end) {
        /** Ends the session's profiling; the path of the profile JSON ORT wrote. */
        interface ProfileEnd {
            Path end() throws BenchException;
        }

        /** {@code ort} directly, or {@code djl-ort}: the same ORT session behind DJL's Predictor, as its forks run it. */
        static Profiling open(EngineKind kind, Path model, Device device, EngineSettings settings, Path profilePrefix)
                throws BenchException {
            return switch (kind) {
                case ORT -> {
                    OrtEngine ort = OrtEngine.open(model, device, settings, profilePrefix);
                    yield new Profiling(ort, ort::endProfiling);
                }
                case DJL_ORT -> DjlOrtEngine.openProfiled(model, device, settings, profilePrefix);
                default -> throw new BenchException("engine '" + kind.id() + "' has no ONNX Runtime session to profile;"
                        + " expected engine 'ort' or 'djl-ort'");
            };
        }
    }

    /** Loads {@code model} on {@code ort}, runs {@code warmup} then {@code calls} calls on one batch, ends profiling. */
    public static OrtProfiledRun run(Path model, Device device, EngineSettings settings, Batch batch, int warmup,
                                     int calls, Path profilePrefix) throws BenchException {
        return run(EngineKind.ORT, model, device, settings, batch, warmup, calls, calls, 0, profilePrefix, Window.NONE);
    }

    /**
     * As above, measuring at least {@code minCalls} calls and then more until {@code nanos} have passed in measured
     * calls or {@code maxCalls} ran: a fixed time per pass whatever the model's speed, and a profile whose size
     * (one event per kernel per call) stays bounded for a model of microseconds. The warm-up is timed the same way
     * ({@code warmup} calls, then more until {@code nanos / 2} or {@code maxCalls}): a JVM that has not run the
     * engine's Java code yet runs it interpreted for its first thousands of calls. {@code window} is open over the
     * measured calls only. {@code kind}: {@code ort}, or {@code djl-ort} (ORT's session inside DJL, called through
     * DJL's Predictor as the cell's forks call it).
     */
    public static OrtProfiledRun run(EngineKind kind, Path model, Device device, EngineSettings settings, Batch batch,
                                     int warmup, int minCalls, int maxCalls, long nanos, Path profilePrefix,
                                     Window window)
            throws BenchException {
        Profiling profiling = Profiling.open(kind, model, device, settings, profilePrefix);
        try (InferenceEngine engine = profiling.engine();
             PreparedInput input = engine.prepare(batch.of(engine.signature()))) {
            long warmed = System.nanoTime();
            for (int i = 0; i < warmup || i < maxCalls && System.nanoTime() - warmed < nanos / 2; i++) {
                engine.run(input).close();
            }
            long[] calls = new long[maxCalls];
            long spent = 0;
            int n = 0;
            window.begin();
            while (n < maxCalls && (n < minCalls || spent < nanos)) {
                long t0 = System.nanoTime();
                Outputs out = engine.run(input);
                calls[n] = System.nanoTime() - t0;
                out.close();
                spent += calls[n++];
            }
            window.end(n);
            return new OrtProfiledRun(Arrays.copyOf(calls, n), profiling.end().end());
        }
    }
}
