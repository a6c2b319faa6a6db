package dev.inferbench.calibration;

import dev.inferbench.serve.OpenLoop;
import dev.inferbench.serve.StepResult;

import java.util.Arrays;
import java.util.List;

/**
 * The open loop's own path from a request's time to its call, in a fresh JVM: three steps of 60 warm-up and 600
 * measured requests exactly 20 ms apart, 4 ms spinning calls on one caller (the calibration's evenly spaced step),
 * each printed as the latency less the call and the wait, at p50/p90/p95/p99. With "rehearsed", the steps follow 250
 * requests 8 ms apart first (2 s at half the capacity: the fork's open-loop warm-up).
 */
public final class OpenLoopPath {
    private static final long CALL_NS = 4_000_000;

    private OpenLoopPath() {
    }

    /** One JVM's steps: {@code cold}, or {@code rehearsed}; exit code 0. */
    public static int check(String[] args) throws Exception {
        boolean rehearsed = args.length > 0 && args[0].equals("rehearsed");
        if (rehearsed) {
            step(250, 0, 8_000_000);
        }
        for (int k = 0; k < 3; k++) {
            StepResult r = step(660, 60, 20_000_000);
            System.out.println((rehearsed ? "rehearsed" : "cold") + " step " + k + ": latency - call "
                    + percentiles(r.latenciesNs(), CALL_NS) + "; wait " + percentiles(r.waitsNs(), 0));
        }
        return 0;
    }

    private static StepResult step(int n, int warmup, long gapNs) throws Exception {
        long[] arrivals = new long[n];
        for (int i = 0; i < n; i++) {
            arrivals[i] = i * gapNs;
        }
        List<OpenLoop.Serve> caller = List.of((ids, done) -> {
            long end = System.nanoTime() + CALL_NS;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            return null;
        });
        return OpenLoop.serve(caller, OpenLoop.Batching.NONE, arrivals, warmup, 1e9 / gapNs, 5_000_000_000L);
    }

    private static String percentiles(long[] sortedNs, long lessNs) {
        StringBuilder b = new StringBuilder();
        for (double p : new double[] {50, 90, 95, 99}) {
            int i = (int) Math.ceil(p / 100 * sortedNs.length) - 1;
            b.append(String.format(" p%.0f %.3f ms", p, (sortedNs[i] - lessNs) / 1e6));
        }
        return b.toString().strip();
    }
}
