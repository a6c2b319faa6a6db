package dev.inferbench.report;

import dev.inferbench.metrics.CallMeanProfiler;
import dev.inferbench.metrics.ModelStatsProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.metrics.SetupProfiler;
import dev.inferbench.metrics.TrainingProfiler;

import java.util.Locale;

/**
 * The groups of a report table's metric columns, in the order they are shown, each a set a reader can fold in the
 * HTML report. Open by default: what a run is mostly asked (how fast: latency, throughput) and, where a run has it,
 * what a variant costs in output quality (a few columns, only in runs that measured it, and then the point of the
 * run). Folded: memory, the model's own figures, startup and CPU/GC, which a reader opens when the question is theirs.
 */
enum MetricGroup {
    LATENCY("latency", true),
    THROUGHPUT("throughput", true),
    QUALITY("quality", true),
    MEMORY("memory", false),
    MODEL("model", false),
    STARTUP("startup", false),
    CPU("cpu & gc", false),
    OTHER("other", false);

    private final String label;
    private final boolean open;

    MetricGroup(String label, boolean open) {
        this.label = label;
        this.open = open;
    }

    /** The group a secondary metric belongs to, by its name. */
    static MetricGroup of(String metric) {
        if (metric.equals(SamplesProfiler.PER_SAMPLE)) {
            return LATENCY;
        }
        if (metric.equals(CallMeanProfiler.LABEL)) {
            return OTHER; // the all-calls mean, which the mean column already shows: a check, not a figure to read
        }
        if (metric.equals(SamplesProfiler.LABEL) || metric.equals(SamplesProfiler.TOKENS)
                || metric.equals(ModelStatsProfiler.GMACS)) {
            return THROUGHPUT;
        }
        if (metric.startsWith("fidelity.") || metric.startsWith("accuracy.")) {
            return QUALITY;
        }
        if (metric.startsWith("mem.") || metric.startsWith(TrainingProfiler.PREFIX)) {
            return MEMORY;
        }
        if (metric.startsWith("model.")) {
            return MODEL;
        }
        if (metric.equals(SetupProfiler.LOAD_TIME) || metric.equals(SetupProfiler.FIRST_INFERENCE)
                || metric.equals(SetupProfiler.PROCESS_TO_FIRST_RESULT)) {
            return STARTUP;
        }
        if (metric.startsWith("cpu.") || metric.startsWith("gc.")) {
            return CPU;
        }
        return OTHER;
    }

    /** The heading a reader sees. */
    String label() {
        return label;
    }

    /** Whether the HTML report shows the group's columns before the reader asks. */
    boolean open() {
        return open;
    }

    /** The CSS class of the group's cells ({@code g-memory}) and, on a table where it is folded, {@code fold-memory}. */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
