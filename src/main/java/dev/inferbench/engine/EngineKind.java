package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.Choices;

import java.nio.file.Path;

/** The engines inferbench can benchmark, by the name used in {@code -p engine=}. */
public enum EngineKind {
    ORT("ort");

    private final String id;

    EngineKind(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /**
     * Loads {@code model} on {@code device}.
     *
     * @param threads intra-op threads; 0 means all available cores
     */
    public InferenceEngine open(Path model, Device device, int threads) throws BenchException {
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        return switch (this) {
            case ORT -> OrtEngine.open(model, device, n);
        };
    }

    public static EngineKind parse(String id) throws BenchException {
        return Choices.parse(values(), EngineKind::id, "engine", id);
    }
}
