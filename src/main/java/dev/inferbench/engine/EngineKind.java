package dev.inferbench.engine;

import dev.inferbench.BenchException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Collectors;

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
        for (EngineKind k : values()) {
            if (k.id.equals(id)) {
                return k;
            }
        }
        throw new BenchException("unknown engine '" + id + "'; expected one of: " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(EngineKind::id).collect(Collectors.joining(", "));
    }
}
