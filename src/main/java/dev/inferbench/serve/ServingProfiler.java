package dev.inferbench.serve;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.FigureProfiler;
import dev.inferbench.metrics.Figures;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.stats.Percentiles;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import java.util.List;
import java.util.Locale;

/**
 * The figures of an open-loop step, as secondary metrics of the serving cell (one measured step per fork, so forks
 * are the unit of their intervals like every other figure):
 * <ul>
 *   <li>{@value #RATE} (req/s): requests served per second; {@value #OFFERED} (req/s): the rate asked for, or for
 *       {@code rate=max} the highest rate shown to meet the SLO ({@value #SUSTAINABLE}), with {@value #FAILING} the
 *       lowest rate above it that did not, {@value #CEILING} 1 when the highest rate tried met it (a lower bound, not
 *       a knee), {@value #NON_MONOTONE} the pairs of rates met above one not met, {@value #STEPS} the steps run,
 *       {@value #LIMIT_BEHIND} and {@value #LIMIT_LATE} 1 when the rate above the knee was INVALID because the callers
 *       fell behind (the service's capacity, not the SLO, set the knee) or because arrivals were late (the
 *       generator's);</li>
 *   <li>{@code serve.p50}, {@code serve.p90}, {@code serve.p95}, {@code serve.p99}, {@code serve.p99.9}, {@value #MAX}
 *       (ms): latency from the intended start, each percentile only when the step had 10 / (1 - p) requests behind
 *       it; {@value #WAIT} and {@value #COMPUTE} (ms, means): the part of it spent queued, and the rest;</li>
 *   <li>{@value #QUEUE} (requests waiting at an arrival, mean), {@value #QUEUE_MAX}, {@value #LATE} (% of arrivals
 *       issued more than {@value #LATE_BOUND} ms late) and {@value #DROPPED} (% of requests);</li>
 *   <li>{@value #VALID} (1 or 0: {@link Validity}), with its reasons {@value #INVALID_LATE} and
 *       {@value #INVALID_RATE} (1 when they apply);</li>
 *   <li>with an SLO: {@value #SLO_MET} (1 when shown met, {@link Slo#judge}), {@value #SLO_UNSURE} (1 when the step's
 *       requests could not tell) and {@value #GOODPUT} (req/s served within the SLO's bound);</li>
 *   <li>{@value #BATCH} (requests per call, mean) when the cell gathers requests into calls (dynamic batching);</li>
 *   <li>for streamed responses (generation under load): {@code serve.ttft.p50}, {@code .p90}, {@code .p99}, the same
 *       of {@code serve.tpot} and {@code serve.itl} (ms; {@link TokenTimes}, each only with 10 / (1 - p) values
 *       behind it: requests for TTFT and TPOT, gaps for ITL), {@value #TOKENS} (output tokens/s served) and
 *       {@value #TOKENS_PER_USER} (output tokens/s per user, the mean over users: {@link
 *       StepResult#outputTokensPerSecondPerUser}).</li>
 * </ul>
 */
public final class ServingProfiler extends FigureProfiler {
    public static final String PREFIX = "serve.";
    public static final String RATE = "serve.rate";
    public static final String OFFERED = "serve.offered";
    public static final String SUSTAINABLE = "serve.sustainable";
    public static final String FAILING = "serve.failing";
    public static final String CEILING = "serve.ceiling";
    public static final String NON_MONOTONE = "serve.nonmonotone";
    /** 1 when the rate above the knee was INVALID because the callers fell behind: the service's capacity set it. */
    public static final String LIMIT_BEHIND = "serve.limit.behind";
    /** 1 when the rate above the knee was INVALID because arrivals were late: the load generator set it. */
    public static final String LIMIT_LATE = "serve.limit.late";
    public static final String MAX = "serve.max";
    public static final String WAIT = "serve.wait";
    public static final String COMPUTE = "serve.compute";
    public static final String QUEUE = "serve.queue";
    public static final String QUEUE_MAX = "serve.queue.max";
    public static final String LATE = "serve.late";
    public static final String LATE_BOUND = "serve.late.bound";
    public static final String DROPPED = "serve.dropped";
    public static final String VALID = "serve.valid";
    public static final String INVALID_LATE = "serve.invalid.late";
    public static final String INVALID_RATE = "serve.invalid.rate";
    public static final String SLO_MET = "serve.slo";
    public static final String SLO_UNSURE = "serve.slo.unsure";
    public static final String GOODPUT = "serve.goodput";
    public static final String STEPS = "serve.steps";
    /** Requests per engine call, mean: given for cells with dynamic batching. */
    public static final String BATCH = "serve.batch";
    /** Output tokens per second served, for streamed responses (generation). */
    public static final String TOKENS = "serve.tokens.output";
    /** Output tokens per second per user, the mean over users (closed-loop users, or each request in the open loop). */
    public static final String TOKENS_PER_USER = "serve.tokens.user";
    /** The token figures of streamed responses, each as {@code serve.<metric>.p<p>} ({@link #tokenLabel}). */
    public static final List<Slo.Metric> TOKEN_METRICS = List.of(Slo.Metric.TTFT, Slo.Metric.TPOT, Slo.Metric.ITL);
    public static final double[] TOKEN_PERCENTILES = {50, 90, 99};
    /** The percentiles given, each as {@code serve.p<p>}. */
    public static final double[] PERCENTILES = {50, 90, 95, 99, 99.9};

    public ServingProfiler() {
        super("open-loop serving: achieved rate, latency percentiles from intended start, queue, late and dropped");
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        ServingRecord.take(); // a warmup step's record is not this iteration's
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        ServingRecord.Entry e = ServingRecord.take();
        if (e == null || !it.measured()) {
            return;
        }
        BenchmarkParams params = it.benchmark();
        boolean batching = params.getParamsKeys().contains(ServingSpec.BATCH_WAIT_MS)
                && ServingSpec.batches(params.getParam(ServingSpec.BATCH_WAIT_MS));
        String batch = params.getParamsKeys().contains(CellSpec.BATCH_SIZE) && !batching
                ? params.getParam(CellSpec.BATCH_SIZE) : "1";
        figures(e, Integer.parseInt(batch), batching, out);
    }

    /**
     * @param samplesPerRequest the cell's batch size, or 1 with dynamic batching (each request one sample)
     * @param batching          whether the callers gathered requests into calls
     */
    static void figures(ServingRecord.Entry e, int samplesPerRequest, boolean batching, Figures out) {
        StepResult s = e.step();
        out.add(RATE, s.achievedPerSecond(), "req/s");
        // samples/s of a serving cell: what it served, each request a batch (the closed-loop figure's own label)
        out.add(SamplesProfiler.LABEL, s.achievedPerSecond() * samplesPerRequest, SamplesProfiler.UNIT);
        if (batching) {
            out.add(BATCH, s.requestsPerCall(), "requests/call");
        }
        out.add(OFFERED, s.offeredPerSecond(), "req/s");
        if (e.search() != null) {
            out.add(SUSTAINABLE, e.search().sustainable(), "req/s");
            out.add(FAILING, e.search().failing(), "req/s");
            out.add(CEILING, e.search().ceiling() ? 1 : 0, "ceiling");
            out.add(NON_MONOTONE, e.search().nonMonotone(), "pairs");
            out.add(STEPS, e.search().steps(), "steps");
            RateSearch.Tried limit = e.search().limit();
            if (limit != null) {
                out.add(LIMIT_BEHIND, limit.invalid().contains("behind") ? 1 : 0, "forks");
                out.add(LIMIT_LATE, limit.invalid().contains("late") ? 1 : 0, "forks");
            }
        }
        for (double p : PERCENTILES) {
            if (s.requests() >= Percentiles.callsFor(p)) {
                out.add(percentileLabel(p), s.percentileMs(p), "ms");
            }
        }
        out.add(MAX, s.percentileMs(100), "ms");
        out.add(WAIT, s.meanWaitMs(), "ms");
        out.add(COMPUTE, s.meanComputeMs(), "ms");
        out.add(QUEUE, s.queueMean(), "requests");
        out.add(QUEUE_MAX, s.queueMax(), "requests");
        Validity v = Validity.of(s, e.slo());
        if (v.checksLateness()) {
            out.add(LATE, 100.0 * v.lateShare(), "%");
            out.add(LATE_BOUND, v.lateBoundNs() / 1e6, "ms");
        }
        out.add(DROPPED, 100.0 * s.dropped() / s.requests(), "%");
        out.add(VALID, v.valid() ? 1 : 0, "valid");
        out.add(INVALID_LATE, v.tooLate() ? 1 : 0, "invalid");
        out.add(INVALID_RATE, v.fellBehind() ? 1 : 0, "invalid");
        if (e.slo() != null) {
            Slo.Verdict verdict = e.slo().judge(s);
            out.add(SLO_MET, verdict == Slo.Verdict.MET ? 1 : 0, "met");
            out.add(SLO_UNSURE, verdict == Slo.Verdict.UNSURE ? 1 : 0, "unsure");
            out.add(GOODPUT, e.slo().goodputPerSecond(s), "req/s");
        }
        if (s.streamed()) {
            for (Slo.Metric m : TOKEN_METRICS) {
                long values = s.sortedNs(m).length;
                for (double p : TOKEN_PERCENTILES) {
                    if (values >= Percentiles.callsFor(p)) {
                        out.add(tokenLabel(m, p), s.percentileMs(m, p), "ms");
                    }
                }
            }
            out.add(TOKENS, s.outputTokensPerSecond(), "tokens/s");
            out.add(TOKENS_PER_USER, s.outputTokensPerSecondPerUser(), "tokens/s");
        }
    }

    /** serve.p50, serve.p99.9 */
    public static String percentileLabel(double p) {
        return PREFIX + "p" + (p == Math.rint(p) ? Long.toString((long) p) : String.format(Locale.ROOT, "%s", p));
    }

    /** The figure a term bounds: serve.p99 for p99<50ms, serve.ttft.p99 for ttft.p99<500ms. */
    public static String label(Slo.Term term) {
        return term.metric() == Slo.Metric.LATENCY ? percentileLabel(term.percentile())
                : tokenLabel(term.metric(), term.percentile());
    }

    /** serve.ttft.p99, serve.itl.p50 */
    public static String tokenLabel(Slo.Metric metric, double p) {
        return PREFIX + metric.id() + "." + percentileLabel(p).substring(PREFIX.length());
    }

    /** Counts a step's served requests, warm-up included, as the iteration's calls, for the per-call CPU figure. */
    public static void countCalls(StepResult step) {
        CpuProfiler.CALLS.add(step.servedInAll());
    }
}
