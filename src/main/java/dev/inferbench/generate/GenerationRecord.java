package dev.inferbench.generate;

import dev.inferbench.metrics.Handoff;

import java.util.ArrayList;
import java.util.List;

/**
 * The requests of the current iteration of this fork, for {@link GenerationProfiler} to turn into the cell's figures.
 * One cell per fork JVM, so one holder suffices; callers on several threads may add at once.
 */
public final class GenerationRecord {
    private static final List<RequestTimes> requests = new ArrayList<>();
    /** The lengths a load step drew and served (GenerationLoadBenchmark), or null. */
    private static final Handoff.Slot<int[][]> LENGTHS = new Handoff.Slot<>();

    private GenerationRecord() {
    }

    public static synchronized void add(RequestTimes r) {
        requests.add(r);
    }

    /**
     * The lengths of the requests a measured load step reported: each one's prompt tokens, and each served one's output
     * tokens. A later step's replace an earlier one's.
     */
    public static void lengths(int[] prompt, int[] output) {
        LENGTHS.set(new int[][]{prompt.clone(), output.clone()});
    }

    /** The requests since the last take, and a fresh start. */
    static synchronized List<RequestTimes> take() {
        List<RequestTimes> out = List.copyOf(requests);
        requests.clear();
        return out;
    }

    /** The lengths since the last take, or null; and a fresh start. */
    static int[][] takeLengths() {
        return LENGTHS.take();
    }
}
