package dev.inferbench.metrics;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The serving side's CPU is the callers' and the engine's threads', and nothing else's: threads that burn known
 * amounts of CPU on their own clocks (no sleeps; each burns until its clock has moved that far), one of them a load
 * generator that must not show. Tolerances are a scheduler tick or two (schedstat is brought up to date at ticks
 * and switches).
 */
class ServingThreadsTest {
    private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();
    private static final long MS = 1_000_000;
    private static final long SLACK = 12 * MS;
    private static volatile double sink;

    @BeforeEach
    void fresh() {
        assumeThat(ServingThreads.currentTid()).as("Linux /proc").isPositive();
        ServingThreads.clear();
    }

    @AfterEach
    void forget() {
        ServingThreads.clear();
    }

    /** Burns this thread's CPU until its own clock has moved by {@code ms}. */
    static void burn(long ms) {
        long end = BEAN.getCurrentThreadCpuTime() + ms * MS;
        double x = 0;
        while (BEAN.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 1000; i++) {
                x += Math.sqrt(x + i);
            }
        }
        sink = x;
    }

    /** A caller that does {@code before} and then one call burning 30 ms: what the callers' figures count of it. */
    private static ServingThreads.Cpu oneCallOf30ms(Runnable before) throws InterruptedException {
        ServingThreads.reset();
        run("caller", () -> {
            ServingThreads.join();
            before.run();
            ServingThreads.callStarts();
            burn(30);
            ServingThreads.callEnds();
            ServingThreads.leave();
        }).join();
        return ServingThreads.counted();
    }

    private static Thread run(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.start();
        return t;
    }

    @Test
    void aGeneratorBurningCpuBesideTheCallerIsNotInTheServingFigure() throws Exception {
        ServingThreads.reset();
        long processBefore = CpuProfiler.processCpuNanos();
        Thread generator = run("generator", () -> burn(150));
        Thread caller = run("caller", () -> {
            ServingThreads.join();
            burn(40);
            ServingThreads.leave();
        });
        caller.join();
        generator.join();
        ServingThreads.Cpu cpu = ServingThreads.counted();
        assertThat(CpuProfiler.processCpuNanos() - processBefore).isGreaterThan(165 * MS); // both burned (10 ms ticks)
        assertThat(cpu.serving()).isBetween(40 * MS - SLACK, 40 * MS + SLACK);
        assertThat(cpu.engine()).isZero();
        assertThat(cpu.inside()).isEqualTo(-1); // the caller marked no calls: no wait figure
    }

    @Test
    void onlyWhatTheCallersSpentSinceTheIterationStartedCounts() throws Exception {
        CountDownLatch warmedUp = new CountDownLatch(1);
        CountDownLatch iterationStarted = new CountDownLatch(1);
        CountDownLatch measured = new CountDownLatch(1);
        CountDownLatch read = new CountDownLatch(1);
        Thread caller = run("caller", () -> {
            ServingThreads.join();
            burn(60); // a warm-up iteration
            warmedUp.countDown();
            await(iterationStarted);
            burn(25);
            measured.countDown();
            await(read); // still serving, blocked, when the iteration ends: read through its tid
            ServingThreads.leave();
        });
        warmedUp.await();
        ServingThreads.reset();
        iterationStarted.countDown();
        measured.await();
        ServingThreads.Cpu cpu = ServingThreads.counted();
        read.countDown();
        caller.join();
        assertThat(cpu.callers()).isBetween(25 * MS - SLACK, 25 * MS + SLACK);
    }

    @Test
    void theCallersCpuOutsideTheirCallsIsTheirWait() throws Exception {
        ServingThreads.Cpu cpu = oneCallOf30ms(() -> burn(20)); // taking a request, waking up
        assertThat(cpu.inside()).isBetween(30 * MS - SLACK / 4, 30 * MS + SLACK / 4);
        assertThat(cpu.callers() - cpu.inside()).isBetween(20 * MS - SLACK, 20 * MS + SLACK);
    }

    /** A thread that marks calls without serving (it left, or never joined) adds nothing to the callers' calls. */
    @Test
    void callsMarkedByAThreadThatIsNotACallerAreNotCounted() throws Exception {
        ServingThreads.Cpu cpu = oneCallOf30ms(() -> { });
        assertThat(cpu.inside()).isBetween(30 * MS - SLACK / 4, 30 * MS + SLACK / 4);
        Thread stray = run("stray", () -> {
            ServingThreads.callStarts();
            burn(15);
            ServingThreads.callEnds();
        });
        stray.join();
        assertThat(ServingThreads.counted().inside()).isBetween(30 * MS - SLACK / 4, 30 * MS + SLACK / 4);
        Thread left = run("left", () -> {
            ServingThreads.join();
            ServingThreads.leave();
            ServingThreads.callStarts();
            burn(15);
            ServingThreads.callEnds();
        });
        left.join();
        assertThat(ServingThreads.counted().inside()).isBetween(30 * MS - SLACK / 4, 30 * MS + SLACK / 4);
    }

    /** A caller that spins for the next arrival does the load generator's work: that CPU is not the serving side's. */
    @Test
    void whatACallerSpendsAsTheGeneratorIsNotServing() throws Exception {
        ServingThreads.Cpu cpu = oneCallOf30ms(() -> {
            long before = ServingThreads.threadCpu();
            burn(40); // awake for the next arrival
            ServingThreads.generating(ServingThreads.threadCpu() - before);
        });
        assertThat(cpu.callers()).isBetween(30 * MS - SLACK, 30 * MS + SLACK);
        assertThat(cpu.callers() - cpu.inside()).isBetween(-SLACK, SLACK);
    }

    /**
     * A native pool thread carries the name of the thread that started it; a Java thread is named after itself, and
     * the JVM names its compiler and GC threads. The loader's namesake started during the load is the engine's; the
     * others are not, and what the engine thread burns counts even after the engine closed.
     */
    @Test
    void theEngineThreadsAreThoseStartedDuringTheLoadUnderTheLoadersName() throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch close = new CountDownLatch(1);
        AtomicReference<List<Integer>> adopted = new AtomicReference<>();
        AtomicReference<List<String>> names = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        CountDownLatch running = new CountDownLatch(3); // a Java thread names itself before it runs
        Thread loader = run("ib-loader", () -> {
            Set<Integer> before = ServingThreads.threads();
            started.add(run("ib-loader", () -> {
                running.countDown();
                await(go);
                burn(30);
                done.countDown();
                await(close); // a pool thread idles until its engine closes
            }));
            started.add(run("C2 CompilerThread9", () -> {
                running.countDown();
                await(go);
                burn(30);
            }));
            started.add(run("Thread-in-load", () -> {
                running.countDown();
                await(go);
            }));
            await(running);
            adopted.set(ServingThreads.adoptStartedSince(before));
            names.set(adopted.get().stream().map(ServingThreads::comm).toList());
        });
        loader.join();
        assertThat(adopted.get()).as("names " + names.get()).hasSize(1);
        ServingThreads.reset();
        go.countDown();
        done.await();
        ServingThreads.retire(adopted.get()); // the engine closes: its thread's share is kept
        close.countDown();
        for (Thread t : started) {
            t.join();
        }
        ServingThreads.Cpu cpu = ServingThreads.counted();
        assertThat(cpu.engine()).isBetween(30 * MS - SLACK, 30 * MS + SLACK); // not the compiler-named one's too
        assertThat(cpu.callers()).isZero();
    }

    @Test
    void noServingThreadNoFigure() {
        ServingThreads.reset();
        assertThat(ServingThreads.counted()).isNull();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
