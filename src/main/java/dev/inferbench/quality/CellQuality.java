package dev.inferbench.quality;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a trial's setup measured about output quality (fidelity to fp32, accuracy on labelled data), left here for
 * the profiler that records it in the JMH result. One cell per fork JVM, so one static holder suffices; the setup
 * clears it before measuring so a cell never reports another's figures.
 */
public final class CellQuality {
    /** A figure with its unit, in the order it was recorded. */
    public record Figure(double value, String unit) {
    }

    /** How many samples the fidelity figures stand on. */
    public static final String FIDELITY_SAMPLES = "fidelity.samples";

    private static final Map<String, Figure> FIGURES = new LinkedHashMap<>();

    private CellQuality() {
    }

    public static synchronized void clear() {
        FIGURES.clear();
    }

    public static synchronized void record(Fidelity f) {
        FIGURES.put("fidelity.top1", new Figure(f.top1Agreement(), "%"));
        FIGURES.put("fidelity.maxabs", new Figure(f.maxAbsError(), "abs"));
        FIGURES.put("fidelity.cosine", new Figure(f.cosine(), "cos"));
        FIGURES.put(FIDELITY_SAMPLES, new Figure(f.samples(), "samples"));
    }

    /**
     * A decoder's fidelity to the fp32 reference: {@code fidelity.tokens}, the % of greedy tokens it chooses as the
     * reference does (both fed the reference's tokens), and {@code fidelity.maxabs}, the largest logit difference at
     * the prefill's last position; {@code fidelity.samples} counts the tokens.
     */
    public static synchronized void recordTokens(double agreement, double maxAbsLogit, int tokens) {
        FIGURES.put("fidelity.tokens", new Figure(agreement, "%"));
        FIGURES.put("fidelity.maxabs", new Figure(maxAbsLogit, "abs"));
        FIGURES.put(FIDELITY_SAMPLES, new Figure(tokens, "samples"));
    }

    public static synchronized void record(Accuracy a) {
        FIGURES.put("accuracy.top1", new Figure(a.top1(), "%"));
        FIGURES.put("accuracy.top5", new Figure(a.top5(), "%"));
    }

    public static synchronized Map<String, Figure> figures() {
        return Map.copyOf(FIGURES);
    }
}
