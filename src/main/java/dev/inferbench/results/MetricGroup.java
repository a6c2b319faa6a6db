package dev.inferbench.results;

/**
 * The groups a report table's metric columns fall in, in the order they are shown, each a set of figures a reader
 * asks about together; the catalogue says each metric's ({@link MetricEntry#group}).
 */
public enum MetricGroup {
    LATENCY("latency"),
    THROUGHPUT("throughput"),
    QUALITY("quality"),
    MEMORY("memory"),
    MODEL("model"),
    STARTUP("startup"),
    CPU("cpu & gc"),
    OTHER("other");

    private final String label;

    MetricGroup(String label) {
        this.label = label;
    }

    /** The heading a reader sees. */
    public String label() {
        return label;
    }
}
