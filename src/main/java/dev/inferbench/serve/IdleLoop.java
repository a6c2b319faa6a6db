package dev.inferbench.serve;

import dev.inferbench.metrics.ServingThreads;
import dev.inferbench.tail.SlowCalls;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

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
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        AtomicLong lastEnd = new AtomicLong(start);
        CallerThreads threads = CallerThreads.start(callers, "inferbench-idle-caller", (caller, call) -> {
            SlowCalls tail = SlowCalls.forCaller(caller); // --tail: this caller's slow calls after idle
            for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                TimeUnit.NANOSECONDS.sleep(idleNs);
                ServingThreads.callStarts();
                tail.resumes(); // after the pause: the pause is no time off the CPU of the call
                long t0 = System.nanoTime();
                call.run();
                long end = System.nanoTime();
                ServingThreads.callEnds();
                tail.ended(t0, end);
                latencies[i] = end - t0;
                lastEnd.accumulateAndGet(end, Math::max);
            }
        });
        threads.join();
        Arrays.sort(latencies);
        return StepResult.of(Double.NaN, latencies, 0, lastEnd.get() - start);
    }
}
