package dev.inferbench.generate;

import java.util.ArrayList;
import java.util.List;

/**
 * The requests of the current iteration of this fork, for {@link GenerationProfiler} to turn into the cell's figures.
 * One cell per fork JVM, so one holder suffices; callers on several threads may add at once.
 */
public final class GenerationRecord {
    private static final List<RequestTimes> requests = new ArrayList<>();

    private GenerationRecord() {
    }

    public static synchronized void add(RequestTimes r) {
        requests.add(r);
    }

    /** The requests since the last take, and a fresh start. */
    static synchronized List<RequestTimes> take() {
        List<RequestTimes> out = List.copyOf(requests);
        requests.clear();
        return out;
    }
}
