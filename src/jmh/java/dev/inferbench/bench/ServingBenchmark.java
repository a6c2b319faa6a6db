package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Outputs;
import dev.inferbench.serve.CallerThreads;
import dev.inferbench.serve.IdleLoop;
import dev.inferbench.serve.OpenLoop;
import dev.inferbench.serve.RateSearch;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingRecord;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.StepResult;
import dev.inferbench.serve.Validity;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Inference as a service sees it: requests arrive at a rate (Poisson by default, seeded), not when the last one
 * finished, queue, and are served by the cell's callers (their own threads here, each with its own input, sharing
 * the model or not). One measured step per fork: its latency percentiles from each request's intended start, the rate
 * achieved, the queue, late and dropped requests ({@link ServingProfiler}). {@code -p rate=max} with an SLO searches,
 * in each fork, for the highest rate whose steps are shown to meet it ({@link RateSearch}). The warmup iteration
 * serves the callers back to back for {@value #WARMUP_SECONDS} s (it warms the JIT and the engine and measures the
 * capacity the search starts from), then for as long again through the open loop at half that capacity, its figures
 * discarded ({@link #rehearse}); each step then begins with warm-up requests at its own rate, left out of its
 * figures ({@link ServingSpec#warmupRequests}). A step whose generator fell behind its schedule, or whose callers fell
 * behind the rate, is INVALID ({@link Validity}): it says so in one line, and never meets the SLO.
 *
 * <p>The primary score is the step's wall time (SingleShotTime: one invocation is one step); the serving figures are
 * the secondary metrics, and the summary shows them in a table of their own.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 1)
@State(Scope.Benchmark)
public class ServingBenchmark extends CallerParams {
    static final double WARMUP_SECONDS = 2;
    /** The open-loop warm-up's load: this share of the capacity the back-to-back warm-up measured. */
    static final double REHEARSAL_LOAD = 0.5;
    /** The most requests the open-loop warm-up issues (a fast engine's {@value #WARMUP_SECONDS} s would be millions). */
    static final int REHEARSAL_MAX_REQUESTS = 20_000;
    /** How long unserved requests are still waited for after the last arrival, at least. */
    private static final long DRAIN_NS = TimeUnit.SECONDS.toNanos(5);

    /** Requests per second offered, or max: the highest rate that meets the SLO (needs one). */
    @Param("10")
    public String rate;

    /** poisson (exponential gaps, seeded) or constant (one request every 1/rate). */
    @Param("poisson")
    public String arrivals;

    /** A latency objective such as p99<50ms (latency from the intended start), or none. */
    @Param("none")
    public String slo;

    /** Requests per measured step; auto: 1,000, or what the SLO's percentile needs (10 / (1 - p)). */
    @Param("auto")
    public String requests;

    /** Above 0: each caller pauses this many ms before each call (outside the timed call); the rate is not used. */
    @Param("0")
    public String idleMs;

    /**
     * off: each request is one call at the cell's batch size. A number of ms: dynamic batching, each request is one
     * sample and a caller serves up to batchSize requests in one call, those waiting and those arriving within this
     * long of the first.
     */
    @Param("off")
    public String batchWaitMs;

    /**
     * The shortest a measured step may be, in s: at a rate whose requests arrive sooner, the step takes more of them
     * (0: just the requests). A step shorter than the machine's slow stretches reads them as the service's limit.
     */
    @Param("10")
    public String stepSeconds;


    private Callers callers;
    /** Each caller's full call, made once at load: its own input at the cell's batch. */
    private final List<OpenLoop.Call> calls = new ArrayList<>();
    /**
     * Each caller's call for n gathered requests: its own input at batch n with dynamic batching; without it n is 1
     * and the call is the full one.
     */
    private final List<OpenLoop.BatchCall> batchCalls = new ArrayList<>();
    private OpenLoop.Batching batching;
    private ServingSpec spec;
    private long seed;
    private boolean warmup;
    private double capacity = Double.NaN;
    private final DuetBarrier duet = DuetBarrier.fromProperty();

    @Setup(Level.Trial)
    public void load(BenchmarkParams jmh) {
        CellFailure.setUp(() -> {
            BenchConfig config = BenchConfig.load();
            spec = ServingSpec.of(params(jmh));
            seed = config.seed("input");
            CellSpec cell = cell(config, jmh);
            batching = spec.batching(cell.batchSize());
            callers = Callers.load(cell);
            if (spec.batches()) {
                callers.prepareSmallerBatches(cell);
            }
            for (Callers.Caller c : callers.all()) {
                OpenLoop.BatchCall call = n -> {
                    try (Outputs out = c.run(n)) {
                        Objects.requireNonNull(out);
                    }
                };
                batchCalls.add(call);
                calls.add(() -> call.run(batching.maxRequests())); // a full call: the cell's batch
            }
        }, this::tearDown);
    }

    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        warmup = params.getType() == IterationType.WARMUP;
        duet.arrive(params);
    }

    /** In turns (compare-commits --turns) the end of an iteration hands the machine to the other side. */
    @TearDown(Level.Iteration)
    public void iterationEnd() {
        duet.leave();
    }

    @Benchmark
    public void step() throws Exception {
        try {
            serve();
        } catch (BenchException e) {
            throw new CellFailure(e); // a caller's call failed: the cell fails with its one line
        }
    }

    private void serve() throws Exception {
        if (warmup || Double.isNaN(capacity)) {
            capacity = closedLoopCapacity();
            if (warmup) {
                rehearse();
                return;
            }
        }
        int[] stepNo = {0};
        RateSearch.Step step = perSecond -> {
            int warm = spec.warmupRequests(perSecond);
            StepResult r = OpenLoop.run(batchCalls, batching,
                    spec.arrivals().schedule(perSecond, warm + spec.requestsAt(perSecond), seed + stepNo[0]++), warm, perSecond,
                    Math.max(DRAIN_NS, (long) (spec.requestsAt(perSecond) / perSecond * 1e9)));
            ServingProfiler.countCalls(r);
            return r;
        };
        if (spec.idleMs() > 0) {
            StepResult r = IdleLoop.run(calls, spec.requests(), (long) (spec.idleMs() * 1e6));
            ServingProfiler.countCalls(r);
            ServingRecord.record(r, spec.slo(), null);
        } else {
            ServingRecord.measure(step, spec, capacity);
        }
    }

    /**
     * The open-loop warm-up: {@value #WARMUP_SECONDS} s of requests at {@value #REHEARSAL_LOAD} of the capacity (at
     * most {@value #REHEARSAL_MAX_REQUESTS}), through the same loop as the measured step and its figures discarded. The
     * back-to-back warm-up runs the engine hot but not the path from a request's time to its call (the caller awake
     * for it, the queue, the hand-off), and cold that path is slower than after one such warm-up, so a first step
     * would read another service than later ones (docs/evidence/calibration.md, "The open loop's resolution").
     */
    private void rehearse() throws Exception {
        if (spec.idleMs() > 0 || !(capacity > 0)) {
            return; // calls after idle have no loop to warm; a capacity of nothing has no rate to warm at
        }
        double perSecond = Math.min(capacity * REHEARSAL_LOAD, ServingSpec.SCHEDULABLE);
        int n = (int) Math.max(2, Math.min(REHEARSAL_MAX_REQUESTS, Math.ceil(perSecond * WARMUP_SECONDS)));
        OpenLoop.run(batchCalls, batching, spec.arrivals().schedule(perSecond, n, ~seed), 0, perSecond, DRAIN_NS);
    }

    /**
     * Requests per second the callers serve back to back, all at once, over about {@value #WARMUP_SECONDS} s; with
     * dynamic batching each call serves a full batch of requests.
     */
    private double closedLoopCapacity() throws Exception {
        long end = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
        AtomicLong served = new AtomicLong();
        long start = System.nanoTime();
        CallerThreads.start(calls, "inferbench-warmup-caller", (caller, call) -> {
            while (System.nanoTime() < end) {
                call.run();
                served.incrementAndGet();
            }
        }).join();
        return served.get() * batching.maxRequests() / ((System.nanoTime() - start) / 1e9);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        calls.clear();
        batchCalls.clear();
        if (callers != null) {
            callers.close();
            callers = null;
        }
    }
}
