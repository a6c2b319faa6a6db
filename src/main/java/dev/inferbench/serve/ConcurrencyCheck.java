package dev.inferbench.serve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether callers running at once each get what their own input gives alone: every round, all callers meet at a
 * barrier and then call together, so that even µs calls overlap (without it, thread start-up alone keeps short
 * calls apart and a shared buffer goes unseen); round r runs each caller's case r mod its cases (one per batch size the
 * cell uses). Each call's outputs must equal its case's outputs alone, value for value. The check also says when it
 * cannot see a mix-up: two callers whose cases give the same outputs alone (the same real-data input) could swap
 * results unnoticed.
 */
public final class ConcurrencyCheck {
    /** Rounds every caller runs; each round is one barrier and one call per caller. */
    public static final int ROUNDS = 20;

    /** One call of one caller, returning its outputs. */
    @FunctionalInterface
    public interface Call {
        float[][] run() throws Exception;
    }

    /** A caller's call at one batch size, and what it gives run alone. */
    public record Case(String label, Call call, float[][] alone) {
    }

    /**
     * @param found   the first difference ("caller 1, batch 4, round 3: output 0 differs (max |diff| 0.5)"), or null
     * @param overlapped rounds in which every caller's call was under way at the same moment
     * @param blind   callers whose cases give the same outputs alone as another caller's ("" when none)
     */
    public record Outcome(String found, int overlapped, int rounds, String blind) {
        public boolean passed() {
            return found == null;
        }
    }

    private ConcurrencyCheck() {
    }

    /** Runs {@code rounds} rounds over the callers, each caller on its own thread; {@code perCaller.get(k)} are k's cases. */
    public static Outcome run(List<List<Case>> perCaller, int rounds) throws Exception {
        int n = perCaller.size();
        CyclicBarrier start = new CyclicBarrier(n);
        AtomicReference<String> found = new AtomicReference<>();
        long[][] begins = new long[rounds][n];
        long[][] ends = new long[rounds][n];
        CallerThreads threads = CallerThreads.start(perCaller, "inferbench-check", (k, cases) -> {
            for (int r = 0; r < rounds; r++) {
                try {
                    start.await();
                } catch (BrokenBarrierException e) {
                    return; // another caller failed: its failure is the check's
                }
                Case c = cases.get(r % cases.size());
                begins[r][k] = System.nanoTime();
                float[][] got = c.call().run();
                ends[r][k] = System.nanoTime();
                String diff = difference(c.alone(), got);
                if (diff != null) {
                    found.compareAndSet(null, "caller " + k + ", " + c.label() + ", round " + (r + 1) + ": " + diff);
                }
            }
        });
        try {
            threads.join();
        } finally {
            start.reset();
        }
        int overlapped = 0;
        for (int r = 0; r < rounds; r++) {
            long lastBegin = Arrays.stream(begins[r]).max().orElse(0);
            long firstEnd = Arrays.stream(ends[r]).min().orElse(0);
            overlapped += lastBegin < firstEnd ? 1 : 0;
        }
        return new Outcome(found.get(), overlapped, rounds, blind(perCaller));
    }

    /** "1 and 0" style list of callers that have a twin among the earlier callers' cases. */
    private static String blind(List<List<Case>> perCaller) {
        List<String> twins = new ArrayList<>();
        for (int k = 1; k < perCaller.size(); k++) {
            for (int j = 0; j < k; j++) {
                if (difference(perCaller.get(j).get(0).alone(), perCaller.get(k).get(0).alone()) == null) {
                    twins.add(j + " and " + k);
                }
            }
        }
        return String.join(", ", twins);
    }

    /** Where two calls' outputs differ, or null when they are equal value for value. */
    public static String difference(float[][] expected, float[][] got) {
        for (int i = 0; i < expected.length; i++) {
            if (i >= got.length || !Arrays.equals(expected[i], got[i])) {
                return "output " + i + " differs" + (i < got.length && got[i].length == expected[i].length
                        ? " (max |diff| " + maxDiff(expected[i], got[i]) + ")" : "");
            }
        }
        return got.length > expected.length ? "output " + expected.length + " is extra" : null;
    }

    private static float maxDiff(float[] a, float[] b) {
        float m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }
}
