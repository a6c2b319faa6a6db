package dev.inferbench.serve;

import dev.inferbench.BenchException;
import dev.inferbench.plant.HeldArrivals;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A serving step fails loudly whatever fails in it: an Error in a caller fails the step with its one line, as an
 * exception does, instead of ending that caller alone (the step would report fewer calls as a success); a failing
 * load generator, or an interrupted one, ends the step with every caller released rather than left waiting on the
 * queue. The time limits only turn a hang into a failure; none of them is a timing.
 */
class CallerFailureTest {
    private static final Duration HANG = Duration.ofSeconds(30);

    @Test
    void anErrorInOneCallerFailsTheOpenLoopStepWithItsOneLine() {
        // the healthy caller holds its first request until the broken one has failed, so the broken one is sure to
        // get a request of its own (an instant healthy caller could serve all 40 first)
        java.util.concurrent.CountDownLatch failed = new java.util.concurrent.CountDownLatch(1);
        OpenLoop.Call healthy = () -> failed.await(HANG.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        OpenLoop.Call broken = () -> {
            failed.countDown();
            throw new AssertionError("kernel gave NaN");
        };
        assertThatThrownBy(() -> OpenLoop.run(List.of(healthy, broken), Arrivals.CONSTANT.schedule(1000, 40, 1), 1000,
                1_000_000_000L))
                .isInstanceOf(BenchException.class)
                .hasMessage("a caller's call ended with java.lang.AssertionError: kernel gave NaN; expected it to"
                        + " return or throw an exception")
                .hasCauseInstanceOf(AssertionError.class);
    }

    @Test
    void anErrorInACallAfterIdleFailsTheStep() {
        OpenLoop.Call outOfMemory = () -> {
            throw new OutOfMemoryError("Cannot reserve 64 bytes of direct buffer memory");
        };
        assertThatThrownBy(() -> IdleLoop.run(List.of(outOfMemory), 5, 1000))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("java.lang.OutOfMemoryError: Cannot reserve 64 bytes of direct buffer memory")
                .hasCauseInstanceOf(OutOfMemoryError.class);
    }

    /** The other callers wait at the round's barrier for the one that failed: they must be let go. */
    @Test
    void anErrorInOneCallerOfTheConcurrencyCheckReleasesTheOthers() {
        ConcurrencyCheck.Case fine = new ConcurrencyCheck.Case("batch 1", () -> new float[][]{{1}}, new float[][]{{1}});
        ConcurrencyCheck.Case unlinked = new ConcurrencyCheck.Case("batch 1", () -> {
            throw new UnsatisfiedLinkError("no onnxruntime in java.library.path");
        }, new float[][]{{1}});
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() ->
                ConcurrencyCheck.run(List.of(List.of(fine), List.of(unlinked), List.of(fine)), 5))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("java.lang.UnsatisfiedLinkError: no onnxruntime in java.library.path")
                .hasCauseInstanceOf(UnsatisfiedLinkError.class));
    }

    /**
     * The first caller fails at once while the later ones are still being started: every one of them, started before
     * or after the failure, is interrupted out of its wait, so that the join returns with the failure.
     */
    @Test
    void aCallerFailingWhileTheOthersStartStillStopsEveryOne() {
        CountDownLatch never = new CountDownLatch(1);
        List<Integer> callers = Collections.nCopies(64, 0);
        assertTimeoutPreemptively(HANG, () -> {
            CallerThreads threads = CallerThreads.start(callers, "inferbench-test-caller", (caller, call) -> {
                if (caller == 0) {
                    throw new IllegalStateException("engine gone");
                }
                never.await();
            });
            assertThatThrownBy(threads::join).hasMessage("engine gone");
        });
    }

    /**
     * The generator fails with both callers in a call: once the step has thrown, neither caller is waiting on the
     * queue for a request or its end marker.
     */
    @Test
    void aFailedIssueReleasesEveryCaller() {
        CyclicBarrier inCalls = new CyclicBarrier(3);
        List<Thread> seen = Collections.synchronizedList(new ArrayList<>());
        OpenLoop.Serve call = (ids, done) -> {
            seen.add(Thread.currentThread());
            inCalls.await();
            return null;
        };
        OpenLoop.Source failing = new Failing(inCalls);
        assertTimeoutPreemptively(HANG, () -> assertThatThrownBy(() -> OpenLoop.step(List.of(call, call),
                OpenLoop.Batching.NONE, failing, 4, 0, 1000, 1_000_000_000L)).hasMessage("the generator broke"));
        assertThat(seen).hasSize(2).noneMatch(Thread::isAlive);
    }

    /** An interrupt of the scheduler ends the step at once, its caller released, not after the schedule's 2 s. */
    @Test
    void anInterruptedSchedulerEndsTheStep() {
        List<Thread> seen = Collections.synchronizedList(new ArrayList<>());
        assertTimeoutPreemptively(HANG, () -> {
            Thread scheduler = Thread.currentThread();
            List<OpenLoop.Serve> interrupting = List.of((ids, done) -> {
                seen.add(Thread.currentThread());
                scheduler.interrupt();
                return null;
            });
            assertThatThrownBy(() -> OpenLoop.serve(interrupting, OpenLoop.Batching.NONE,
                    Arrivals.CONSTANT.schedule(1, 3, 1), 0, 1, 1_000_000_000L, HeldArrivals.NONE))
                    .isInstanceOf(InterruptedException.class);
        });
        assertThat(seen).hasSize(1).noneMatch(Thread::isAlive);
    }

    @Test
    void anInterruptEndsTheScheduleAndLeavesNothingForTheCallersToIssue() {
        Schedule schedule = new Schedule(new long[]{0, 30_000_000_000L});
        Issuer issuer = new Issuer(new java.util.concurrent.LinkedBlockingQueue<>(), System.nanoTime(), 0, new long[2]);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> schedule.issue(issuer, () -> false)).isInstanceOf(InterruptedException.class);
        });
        assertThat(issuer.issued()).isZero();
        assertThat(schedule.nextDue()).isEqualTo(OpenLoop.Source.NONE);
    }

    /** Issues two requests, waits until both callers are in their calls, then fails. */
    private record Failing(CyclicBarrier inCalls) implements OpenLoop.Source {
        @Override
        public void issue(Issuer issuer, BooleanSupplier stop) throws InterruptedException {
            issuer.issue(0, issuer.start());
            issuer.issue(1, issuer.start());
            try {
                inCalls.await();
            } catch (BrokenBarrierException e) {
                throw new AssertionError("a caller left the barrier", e);
            }
            throw new IllegalStateException("the generator broke");
        }

        @Override
        public void ended(int request, long nanos) {
        }

        @Override
        public int[] users(int warmup) {
            return new int[0];
        }

        @Override
        public boolean scheduled() {
            return true;
        }
    }
}
