package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How an engine is configured when a model is loaded. Each engine applies what it has and ignores the rest:
 * {@code optimization} applies to ort and djl-ort only; djl-pytorch maps {@code threads} and {@code interOpThreads}
 * to libtorch's intra-op and inter-op pools.
 *
 * @param threads        intra-op threads; 0 means all available cores
 * @param interOpThreads inter-op threads; 0 leaves the engine's own default
 * @param optimization   ONNX Runtime's graph optimization level
 * @param declaredInputs per-sample input shapes from the model registry (batch left out), for file formats that do
 *                       not declare their inputs (TorchScript); inputs are then float32
 * @param spinning       whether ONNX Runtime's pool threads spin (busy-wait) between pieces of work, its default;
 *                       {@code false} sets {@code session.intra_op.allow_spinning=0} and {@code inter_op} alike (ort
 *                       only), which saves the CPU they burn waiting at the cost of waking them
 */
public record EngineSettings(int threads, int interOpThreads, GraphOptimization optimization,
                             Map<String, long[]> declaredInputs, boolean spinning) {

    public static final EngineSettings DEFAULTS = new EngineSettings(0, 0, GraphOptimization.ALL, Map.of());

    public EngineSettings {
        if (threads < 0 || interOpThreads < 0) {
            throw new IllegalArgumentException("thread counts must be >= 0");
        }
        declaredInputs = Collections.unmodifiableMap(new LinkedHashMap<>(declaredInputs)); // model order
    }

    /** The engine's own spinning default. */
    public EngineSettings(int threads, int interOpThreads, GraphOptimization optimization,
                          Map<String, long[]> declaredInputs) {
        this(threads, interOpThreads, optimization, declaredInputs, true);
    }

    public static EngineSettings threads(int threads) {
        return new EngineSettings(threads, 0, GraphOptimization.ALL, Map.of());
    }

    /** Intra-op threads with 0 resolved to the number of available cores. */
    public int resolvedThreads() {
        return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
    }

    /** ONNX Runtime's graph optimization levels, by the name used in {@code -p optLevel=}. */
    public enum GraphOptimization {
        ALL, EXTENDED, BASIC, NONE;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static GraphOptimization parse(String id) throws BenchException {
            return EnumLookup.parse(values(), GraphOptimization::id, "optLevel", id);
        }
    }
}
