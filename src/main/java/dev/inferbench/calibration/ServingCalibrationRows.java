package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.plant.HeldArrivals;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.calibration.CalibrationRows.Row;
import dev.inferbench.calibration.CalibrationRows.Run;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.serve.QueueModel;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.Slo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static dev.inferbench.calibration.CalibrationRows.run;
import static dev.inferbench.calibration.CalibrationRows.serving;

/**
 * The planted truths of the serving tables ({@link CalibrationRows} holds the rest and runs them all): queues whose
 * figures follow from the schedule, M/D/1 at a fixed rate, and closed-loop users of the stub decoder.
 */
final class ServingCalibrationRows {
    private ServingCalibrationRows() {
    }

    /**
     * Closed-loop users ({@code users=N}) on the stub decoder of a 20 ms prefill and 5 ms tokens, 16 prompt and 8
     * output tokens: a request holds the decoder 20 + 7 x 5 = 55 ms. One user sends each request as its last ends and
     * finds the decoder idle: TTFT is the prefill, and the user gets 8 tokens in 55 ms. Two users at batch 1 on one
     * caller: each request is sent as its user's last ends, which is when the other user's request begins, so it waits
     * out that request's 55 ms: TTFT 55 + 20 = 75 ms, 8 tokens in 110 ms a user. At batch 2 (a 5 ms gathering wait)
     * the two users' requests end together and share every batch, whose steps the stub costs as one: TTFT 20 ms
     * again, 2 requests a batch. A KV-cache budget that holds one request (llama-tiny's 512 B a token x 24 tokens =
     * 12 KiB; 15 KiB given) turns that batch of 2 back into one request at a time: 75 ms, 1 request a batch.
     */
    static void closedLoop(List<Row> rows) {
        String ttft = ServingProfiler.tokenLabel(Slo.Metric.TTFT, 50);
        Run one = closedLoopRun("users-1", "-p", "users=1", "-p", "batchSize=1");
        rows.add(new Row(ServingProfiler.TOKENS_PER_USER + ", 1 user, 55 ms requests of 8 tokens", 8 / 0.055,
                "tokens/s", 0.05, true, true, one, ServingProfiler.TOKENS_PER_USER));
        rows.add(new Row(ttft + ", 1 user: the prefill", 20, "ms", 0.05, true, true, one, ttft));
        Run two = closedLoopRun("users-2", "-p", "users=2", "-p", "batchSize=1");
        rows.add(new Row(ttft + ", 2 users at batch 1: the other's request, then the prefill", 55 + 20, "ms", 0.05,
                true, true, two, ttft));
        rows.add(new Row(ServingProfiler.TOKENS_PER_USER + ", 2 users at batch 1: 8 tokens in 110 ms", 8 / 0.110,
                "tokens/s", 0.05, true, true, two, ServingProfiler.TOKENS_PER_USER));
        Run batched = closedLoopRun("users-2-batch-2", "-p", "users=2", "-p", "batchSize=2", "-p", "batchWaitMs=5");
        rows.add(new Row(ttft + ", 2 users at batch 2: one batch for both", 20, "ms", 0.05, true, true, batched, ttft));
        rows.add(new Row(ServingProfiler.BATCH + ", 2 users at batch 2", 2, "requests/call", 0.02, true, true, batched,
                ServingProfiler.BATCH));
        Run budget = closedLoopRun("users-2-kv-1", "-p", "users=2", "-p", "batchSize=2", "-p", "batchWaitMs=5", "-p",
                "kvBudgetMiB=" + 15.0 / 1024);
        rows.add(new Row(ttft + ", 2 users at batch 2, a KV budget of one request: one at a time", 55 + 20, "ms", 0.05,
                true, true, budget, ttft));
        rows.add(new Row(ServingProfiler.BATCH + ", 2 users at batch 2, same budget", 1, "requests/call", 0.02, true,
                true, budget, ServingProfiler.BATCH));
    }

    private static Run closedLoopRun(String name, String... params) {
        List<String> args = new ArrayList<>(List.of("-p", "model=llama-tiny", "-p", "promptLen=16", "-p", "outputLen=8",
                "-p", "threads=1", "-p", "requests=40"));
        args.addAll(List.of(params));
        return run(name, "GenerationLoadBenchmark", "prefill=20ms,token=5ms", args.toArray(String[]::new));
    }

    /**
     * The serving columns a queue in equilibrium leaves loose, on schedules whose every figure is known: arrivals
     * exactly 20 ms apart (50 req/s, {@code arrivals=constant}) at 4 ms calls of which every 200th stalls 90 ms. A
     * stall holds the four arrivals during it (the queue at their arrival: 0, 1, 2, 3, so the longest queue is 3), the
     * stalled request is the slowest (90 ms), the four held and the one after them end 74, 58, 42, 26 and 10 ms after
     * they arrived; the rest take the call's 4 ms. Of a step's 1,000 requests, 5 or 6 stall: p95 is a plain call; under a
     * 20 ms bound 5 of every 200 miss it (goodput 48.75 req/s). Then an overload: arrivals 2.5 ms apart (400 req/s)
     * at 10 ms calls for 2,200 requests (200 of them the warm-up) and the step's 5 s drain: the caller serves 100 a
     * second for the 5.5 s of arrivals and the drain, 1,050 requests, so 850 of the 2,000 measured ones are served and
     * 57.5 % are dropped. And dynamic batching: arrivals 1 ms apart, 2 ms calls, up to 4 requests a call held for up
     * to 10 ms: two requests arrive during each call and two more within the wait, so every call serves 4.
     */
    static void knownSchedules(List<Row> rows) throws BenchException {
        Run stall = serving("stall", "call=4ms,tail=90ms/200", "-p", "arrivals=constant", "-p", "rate=50", "-p",
                "stepSeconds=12", "-p", "slo=p90<20ms");
        rows.add(new Row(ServingProfiler.percentileLabel(95) + ", 50 req/s evenly, 4 ms calls, every 200th 90 ms", 4,
                "ms", 0.1, true, false, stall, ServingProfiler.percentileLabel(95))
                .atLeast(CalibrationRows.OPEN_LOOP_PATH_MS));
        rows.add(new Row(ServingProfiler.MAX + ", same schedule: the stalled call", 90, "ms", 0.05, true, false, stall,
                ServingProfiler.MAX));
        rows.add(new Row(ServingProfiler.QUEUE_MAX + ", same schedule: four arrivals held by a stall", 3, "requests", 0,
                false, false, stall, ServingProfiler.QUEUE_MAX));
        rows.add(new Row(ServingProfiler.GOODPUT + " under 20 ms, same schedule: 195 of every 200", 50 * 195 / 200.0,
                "req/s", 0.02, true, false, stall, ServingProfiler.GOODPUT));
        rows.add(new Row(ServingProfiler.DROPPED + ", same schedule (nothing is left at the step's end)", 0, "%", 0,
                false, false, stall, ServingProfiler.DROPPED));
        lateArrivals(rows);
        Run overload = serving("overload", "call=10ms", "-p", "arrivals=constant", "-p", "rate=400", "-p",
                "requests=2000", "-p", "stepSeconds=0");
        rows.add(new Row(ServingProfiler.DROPPED + ", 400 req/s at a 100 req/s capacity, 2,000 requests, 5 s drain",
                100 * 1150 / 2000.0, "%", 0.05, true, false, overload, ServingProfiler.DROPPED));
        Run batching = serving("batching", "call=2ms", "-p", "batchSize=4", "-p", "batchWaitMs=10", "-p",
                "arrivals=constant", "-p", "rate=1000", "-p", "stepSeconds=5");
        rows.add(new Row(ServingProfiler.BATCH + " (requests per call), 1,000 req/s evenly, batch 4, 10 ms wait, 2 ms"
                + " calls", 4, "requests/call", 0.02, true, false, batching, ServingProfiler.BATCH));
    }

    /**
     * The load generator's lateness, planted: arrivals exactly 20 ms apart (50 req/s, 600 measured requests after 60
     * of warm-up), 4 ms calls, and every 200th request issued 3 ms after its time ({@link HeldArrivals}); without an
     * SLO an arrival is late past 1 ms, so the measured requests held (199, 399 and 599 of the step) and no others read
     * late: 0.5 %, within the 1 % a valid step may have.
     */
    private static void lateArrivals(List<Row> rows) throws BenchException {
        String held = "3ms/200";
        ServingSpec spec = ServingSpec.of(Map.of("arrivals", "constant", "rate", "50", "requests", "600",
                "stepSeconds", "0"));
        int warm = spec.warmupRequests(50);
        int measured = spec.requestsAt(50);
        HeldArrivals plant = HeldArrivals.parse(held);
        long late = IntStream.range(warm, warm + measured).filter(i -> plant.of(i) > 0).count();
        Run run = serving("held", "call=4ms -D" + HeldArrivals.PROPERTY + "=" + held, "-p", "arrivals=constant", "-p",
                "rate=50", "-p", "requests=600", "-p", "stepSeconds=0");
        rows.add(new Row(ServingProfiler.LATE + ", 50 req/s evenly, 4 ms calls, every 200th issued 3 ms late (1 ms"
                + " bound)", 100.0 * late / measured, "%", 100.0 / measured, false, false, run, ServingProfiler.LATE));
    }

    /**
     * The serving table's columns at a fixed rate: 4 ms calls on one caller under Poisson arrivals at 100 req/s
     * (ρ = 0.4), an M/D/1 queue, whose served rate is the offered one and whose serving side keeps 0.4 of a core busy
     * spinning. The latency percentiles and mean wait are planted as what a server of exactly 4 ms makes of the step's
     * own arrivals (the fork's seed, its warm-up left out: {@link QueueModel#oneServer}), not the queue's limit over
     * endless arrivals, from which one step's draw lies several percent away at p90. A 12 s step: 1,200 requests,
     * enough for p99. At ρ = 0.6 the harness's own cost per request (about 0.04 ms of hand-off beside the 4 ms call, a
     * 1 % longer service) already moved the mean wait by 10 %: the wait grows as ρ / (1 − ρ), so the rows sit where the
     * queue is real but not that steep.
     */
    static void fixedRate(List<Row> rows) throws BenchException {
        double rate = 100;
        double d = 0.004;
        Run open = serving("open-100", "call=4ms", "-p", "rate=100", "-p", "stepSeconds=12");
        QueueModel.Served ideal = oneServer(rate, d, Map.of("rate", "100", "stepSeconds", "12"));
        rows.add(new Row(ServingProfiler.RATE + " (served/s) at 100 req/s offered, 4 ms calls", rate, "req/s", 0.05,
                true, false, open, ServingProfiler.RATE));
        for (double p : new double[] {50, 90, 99}) {
            rows.add(new Row(ServingProfiler.percentileLabel(p) + " at 100 req/s, 4 ms calls (M/D/1, its arrivals)",
                    ideal.percentileMs(p), "ms", 0.1, true, false, open, ServingProfiler.percentileLabel(p))
                    .atLeast(CalibrationRows.OPEN_LOOP_PATH_MS));
        }
        // the wait and the cores, less the same at 10 req/s (ρ = 0.04): what the open loop costs when no request
        // queues (a parked caller woken for each request, the JVM's own threads) is the harness's, not the queue's
        Run idle = serving("open-10", "call=4ms", "-p", "rate=10", "-p", "stepSeconds=12", "-p", "requests=100");
        QueueModel.Served idleIdeal = oneServer(10, d, Map.of("rate", "10", "stepSeconds", "12", "requests", "100"));
        rows.add(new Row(ServingProfiler.WAIT + " (mean) at 100 req/s, 4 ms calls (M/D/1, its arrivals), less at 10"
                + " req/s", ideal.meanWaitMs() - idleIdeal.meanWaitMs(), "ms", 0.1, true, false, open,
                ServingProfiler.WAIT, idle));
        rows.add(new Row(CpuProfiler.CORES + " at 100 req/s of 4 ms spinning calls, less at 10 req/s", (rate - 10) * d,
                "cores", 0.1, true, false, open, CpuProfiler.CORES, idle));
    }

    /**
     * A perfect server of {@code d} s a request on the measured step a fork of these serving params draws: the same
     * warm-up and measured counts ({@link ServingSpec}) and the same seed (the config's {@code seed.input}, the first
     * step's).
     */
    static QueueModel.Served oneServer(double rate, double d, Map<String, String> params)
            throws BenchException {
        ServingSpec spec = ServingSpec.of(params);
        int warm = spec.warmupRequests(rate);
        long[] arrivals = spec.arrivals().schedule(rate, warm + spec.requestsAt(rate), BenchConfig.load().seed("input"));
        return QueueModel.oneServer(arrivals, warm, Math.round(d * 1e9));
    }
}
