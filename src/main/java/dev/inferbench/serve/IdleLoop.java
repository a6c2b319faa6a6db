package dev.inferbench.serve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Calls after idle: each caller pauses {@code idleNs}, then makes one call, timed alone (the pause is outside the timed
 * region), until the step's requests are made. What a service sees when requests are sparse: ORT's pool threads have
 * stopped spinning and gone to sleep, caches are cold, the CPU may have clocked down, so the first call after a gap
 * is slower than a back-to-back one.
 */
public final class IdleLoop {
    private IdleLoop() {
    }

    public static StepResult run(List<OpenLoop.Call> callers, int requests, long idleNs) throws Exception {
        long[] latencies = new long[requests];
        int[] next = {0};
        Exception[] failure = new Exception[1];
        List<Thread> threads = new ArrayList<>();
        long start = System.nanoTime();
        long[] lastEnd = {start};
        for (int c = 0; c < callers.size(); c++) {
            OpenLoop.Call call = callers.get(c);
            Thread t = new Thread(() -> {
                try {
                    while (true) {
                        int i;
                        synchronized (next) {
                            if (next[0] >= requests || failure[0] != null) {
                                return;
                            }
                            i = next[0]++;
                        }
                        TimeUnit.NANOSECONDS.sleep(idleNs);
                        long t0 = System.nanoTime();
                        call.run();
                        long end = System.nanoTime();
                        latencies[i] = end - t0;
                        synchronized (lastEnd) {
                            lastEnd[0] = Math.max(lastEnd[0], end);
                        }
                    }
                } catch (Exception e) {
                    synchronized (next) {
                        if (failure[0] == null) {
                            failure[0] = e;
                        }
                    }
                }
            }, "inferbench-idle-caller-" + c);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        Arrays.sort(latencies);
        return new StepResult(Double.NaN, latencies, 0, 0, 0, 0, lastEnd[0] - start);
    }
}
