package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.metrics.CallBytesProfiler;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.metrics.SetupProfiler;
import dev.inferbench.report.Units;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.serve.QueueModel;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.stats.PercentileBound;
import dev.inferbench.serve.Slo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The planted truths, one row each: a run of the {@code stub} engine (or the leaking fault, or the slowdown aid) whose
 * true value is known, the figure that must read it back, and how close. Each row names the run it reads; rows that
 * read the same run share it. The fast rows (seconds each) run in {@code calibrate --fast} and
 * {@code mvn verify -Pcalibration}; the others take minutes (rate searches with 10 s steps, a comparison of two runs).
 */
final class CalibrationRows {
    /**
     * A run of the jar: JMH arguments after the benchmark's name; rows with equal arguments share one run.
     *
     * @param neighbour a periodic busy neighbour the table starts beside the whole run, outside its JVMs, or null
     */
    record Run(String name, List<String> args, Neighbour neighbour) {
        Run(String name, List<String> args) {
            this(name, args, null);
        }
    }

    /** One core kept busy {@code busy} in every {@code period}, the first time after {@code delay}. */
    record Neighbour(java.time.Duration busy, java.time.Duration period, java.time.Duration delay) {
    }

    /**
     * @param figure    the figure, as the summary or tables name it, and the setting
     * @param planted   the true value
     * @param unit      its unit
     * @param tolerance the largest error allowed: absolute in {@code unit} when {@code relative} is false, else a share
     * @param fast      whether it takes seconds ({@code calibrate --fast})
     * @param run       the run it reads
     * @param metric    the secondary metric read (the run's one cell), or {@link #RATIO} for the comparison's ratio
     * @param baseline  a run without the plant whose reading of the same figure is taken off this run's (what the
     *                  engine costs on its own: ORT's load of the model, the JVM's own memory), or null
     * @param floor     with a relative tolerance, the least error allowed, in {@code unit} (0: none): a figure's
     *                  resolution, as an instrument is specified to a share of its reading or a fixed amount,
     *                  whichever is more ({@link #OPEN_LOOP_PATH_MS})
     */
    record Row(String figure, double planted, String unit, double tolerance, boolean relative, boolean fast, Run run,
               String metric, Run baseline, double floor) {
        Row(String figure, double planted, String unit, double tolerance, boolean relative, boolean fast, Run run,
            String metric, Run baseline) {
            this(figure, planted, unit, tolerance, relative, fast, run, metric, baseline, 0);
        }

        Row(String figure, double planted, String unit, double tolerance, boolean relative, boolean fast, Run run,
            String metric) {
            this(figure, planted, unit, tolerance, relative, fast, run, metric, null);
        }

        /** This row, allowing at least {@code least} (in its unit) whatever its share. */
        Row atLeast(double least) {
            return new Row(figure, planted, unit, tolerance, relative, fast, run, metric, baseline, least);
        }

        /** The largest error allowed, in the row's unit. */
        double allowed() {
            return relative ? Math.max(tolerance * Math.abs(planted), floor) : tolerance;
        }

        boolean holds(double reading) {
            return !Double.isNaN(reading) && Math.abs(reading - planted) <= allowed();
        }
    }

    /**
     * The open loop's resolution of one request's latency, ms: the path from a request's time to its call's start on
     * the caller awake for it (the issue, the queue, the caller's own bookkeeping), which after an idle gap runs with
     * the core's caches cold: a few tenths of a millisecond at most on a small VM (docs/evidence/calibration.md, "The
     * open loop's resolution"); a latency row allows this much or its share, whichever is more.
     */
    static final double OPEN_LOOP_PATH_MS = 0.5;

    /** The ratio of the slowed run's mean time to the plain run's, from {@code compare}. */
    static final String RATIO = "ratio";
    /** The cell's mean time per call, as the summary reads it (ms). */
    static final String TIME = "time";
    /** The summary's percentiles and maximum of the calls' times (ms). */
    static final String P50 = "p50";
    static final String P99 = "p99";
    static final String STUB = "-Dinferbench.stub=";
    /** Between two metric names: the first less the second. */
    static final String MINUS = " - ";
    private static final List<String> ONE_FORK = List.of("-f", "1", "-wi", "1", "-w", "500ms", "-i", "2", "-r", "1s");

    private CalibrationRows() {
    }

    static List<Row> all() throws BenchException {
        List<Row> rows = new ArrayList<>();
        for (String call : List.of("2us", "20ms")) {
            for (int bytes : new int[] {0, 64, 4096}) {
                Run run = inference("alloc-" + bytes + "-" + call, "call=" + call + ",alloc=" + bytes);
                rows.add(new Row("alloc B/op (" + CallBytesProfiler.LABEL + "), " + call.replace("us", " µs")
                        .replace("ms", " ms") + " call", bytes, "B", 8, false, true, run, CallBytesProfiler.LABEL));
            }
        }
        // the 20 ms call of the rows above: its time is the summary's mean, its rate samples/s (batch 1)
        Run twentyMs = inference("alloc-0-20ms", "call=20ms,alloc=0");
        rows.add(new Row("mean ms per call (the summary's mean), 20 ms call", 20, "ms", 0.02, true, true, twentyMs,
                TIME));
        rows.add(new Row(SamplesProfiler.LABEL + "/s, 20 ms call at batch 1", 50, "samples/s", 0.02, true, true,
                twentyMs, SamplesProfiler.LABEL));
        rows.add(new Row(CpuProfiler.SERVING + ", closed loop", 2, "ms", 0.05, true, true,
                inference("cpu-closed", "cpu=2ms"), CpuProfiler.SERVING));
        // in the open loop the callers also spend CPU outside their calls, waiting for and taking requests
        // (cpu.call.wait, about 0.1 ms a request whatever the call costs): the calls' own CPU is the rest
        rows.add(new Row(CpuProfiler.SERVING + " - " + CpuProfiler.WAIT + ", open loop at 100 req/s", 2, "ms", 0.05,
                true, true, serving("cpu-open", "cpu=2ms", "-p", "rate=100", "-p", "stepSeconds=3"),
                CpuProfiler.SERVING + MINUS + CpuProfiler.WAIT));
        Run generation = run("generation", "GenerationBenchmark", "prefill=20ms,token=5ms", "-p", "model=llama-tiny",
                "-p", "promptLen=16", "-p", "outputLen=8", "-p", "threads=1", "-p", "batchSize=1");
        rows.add(new Row(GenerationFigures.TTFT + " (GenerationBenchmark)", 20, "ms", 0.05, true, true, generation,
                GenerationFigures.TTFT));
        rows.add(new Row(GenerationFigures.TPOT + " (GenerationBenchmark)", 5, "ms", 0.05, true, true, generation,
                GenerationFigures.TPOT));
        // 2 req/s of 55 ms requests: 89 % of them find the decoder idle, so the median TTFT is the prefill alone
        Run underLoad = run("generation-load", "GenerationLoadBenchmark", "prefill=20ms,token=5ms", "-p", "model=llama-tiny",
                "-p", "promptLen=16", "-p", "outputLen=8", "-p", "batchSize=1", "-p", "threads=1", "-p", "rate=2",
                "-p", "requests=40", "-p", "stepSeconds=0");
        rows.add(new Row("serve.ttft.p50 under load at 2 req/s", 20, "ms", 0.05, true, true, underLoad,
                ServingProfiler.tokenLabel(Slo.Metric.TTFT, 50)));
        // the tokens after the first come at the decoder's own pace whatever the queue did before the request began
        rows.add(new Row("serve.tpot.p50 under load at 2 req/s", 5, "ms", 0.05, true, true, underLoad,
                ServingProfiler.tokenLabel(Slo.Metric.TPOT, 50)));
        rows.add(new Row("serve.itl.p90 under load at 2 req/s", 5, "ms", 0.05, true, true, underLoad,
                ServingProfiler.tokenLabel(Slo.Metric.ITL, 90)));
        ServingCalibrationRows.closedLoop(rows);
        summaryRows(rows);
        DisturbedRows.rows(rows);
        DisturbedRows.periodicRows(rows);
        TailRows.rows(rows);
        TailRows.tokenRows(rows);
        TailRows.servingRows(rows);
        generationRows(rows, generation);
        generationTailRows(rows);
        // the resident set, not the bytes allocated: a kernel that reclaims cold pages (DAMON's kdamond) takes some
        // of the leak back, hence the wide tolerance (docs/evidence/calibration.md, "The full table")
        rows.add(new Row(MemoryProfiler.RSS_GROWTH + ", leaking 1 MiB per 2^20 calls", 1e4 / (1 << 20), "MiB/10k calls",
                0.2, true, true, new Run("leak", List.of("FaultInjectionBenchmark", "-p", "fault=leak", "-f", "1", "-wi", "1",
                "-w", "1s", "-i", "2", "-r", "2s")), MemoryProfiler.RSS_GROWTH));
        // 5 req/s of 55 ms requests (ρ = 0.275): a tenth wait over about 43 ms, so TTFT's p90, counted from the
        // arrival the schedule intended, is near 63 ms (planted exactly: what a server of 55 ms makes of the step's
        // own arrivals); counted from the call's start it would read the prefill's 20 ms
        double service = 0.020 + 7 * 0.005;
        double p90 = ServingCalibrationRows.oneServer(5, service, Map.of("rate", "5", "requests", "600",
                "stepSeconds", "0")).percentileMs(90) - 1e3 * (service - 0.020);
        rows.add(new Row("serve.ttft.p90 under load at 5 req/s (M/D/1, its arrivals)", p90, "ms", 0.1, true, false,
                run("generation-load-p90", "GenerationLoadBenchmark", "prefill=20ms,token=5ms", "-p", "model=llama-tiny",
                        "-p", "promptLen=16", "-p", "outputLen=8", "-p", "batchSize=1", "-p", "threads=1",
                        "-p", "rate=5",
                        "-p", "requests=600", "-p", "stepSeconds=0"),
                ServingProfiler.tokenLabel(Slo.Metric.TTFT, 90)));
        ServingCalibrationRows.fixedRate(rows);
        ServingCalibrationRows.knownSchedules(rows);
        rows.add(new Row("serve.sustainable, 1 ms service, p50<2s (capacity)", 1000, "req/s", 0.05, true, false,
                serving("capacity", "call=1ms", "-p", "rate=max", "-p", "slo=p50<2s"), ServingProfiler.SUSTAINABLE));
        // 4 ms calls and a 20 ms bound (M/D/1 scales: the knee is 1 ms's at 5 ms, divided by 4), so that the late
        // rule's 2 ms is far from what one scheduler thread keeps on a machine with few cores. The planted knee is
        // the rate a search can show met: a step of 10 s is met only when its count over the bound is shown under
        // 10 % at 95 %, which the model's expected count meets a little below the rate where p90 equals the bound
        // (that rate is named)
        double p90Knee = QueueModel.kneeRate(90, 0.020, 0.004);
        double shown = QueueModel.shownKneeRate(90, 0.020, 0.004, ServingSpec.DEFAULT_STEP_SECONDS, 100,
                PercentileBound.CONFIDENCE);
        rows.add(new Row(String.format(Locale.ROOT, "serve.sustainable, 4 ms service, p90<20ms (M/D/1: p90 at the"
                + " bound at %.0f req/s, shown met at 95 %% below it)", p90Knee), shown, "req/s", 0.05, true, false,
                serving("knee-p90", "call=4ms", "-p", "rate=max", "-p", "slo=p90<20ms"), ServingProfiler.SUSTAINABLE));
        rows.add(new Row("compare ratio, 10 % injected slowdown", 1.10, "x", 0.03, true, false,
                new Run("slowdown", List.of("InferenceBenchmark", "-p", "model=mlp-tiny", "-p", "threads=1", "-p",
                        "batchSize=1", "--forks", "10", "-wi", "1", "-w", "1s", "-i", "2", "-r", "1s")), RATIO));
        return rows;
    }

    /**
     * The summary's other columns: a 2 ms call whose every 50th call takes 20 ms (2 % of the calls: p50 and p95 read
     * 2 ms, p99 and max 20 ms, the mean 0.98 × 2 + 0.02 × 20 = 2.36 ms), a load 5 s longer and a first call 500 ms
     * longer than the engine's own, and memory held from the load. What the engine costs on its own (ORT's load of
     * the model, the JVM's memory) is read in a run of the same call without the rest and taken off; two JVMs' starts
     * and ORT loads differ by a good part of a second, hence plants of seconds (docs/evidence/calibration.md, "Why the
     * start rows plant seconds").
     */
    private static void summaryRows(List<Row> rows) {
        Run base = inference("base-2ms", "call=2ms");
        // 2 s iterations: about 1,700 calls, enough for a p99 (1,000)
        Run times = new Run("times", List.of("InferenceBenchmark", "-p", "engine=stub", "-p", "model=mlp-tiny", "-p",
                "batchSize=1", "-p", "threads=1", "-f", "1", "-wi", "1", "-w", "500ms", "-i", "2", "-r", "2s",
                "-jvmArgsAppend", STUB + "call=2ms,tail=20ms/50,load=5s,first=500ms"));
        rows.add(new Row("p50 (the summary's), 2 ms call, every 50th 20 ms", 2, "ms", 0.05, true, true, times, P50));
        rows.add(new Row("p95, same calls", 2, "ms", 0.05, true, true, times, CellSummary.P95));
        rows.add(new Row("p99, same calls", 20, "ms", 0.05, true, true, times, P99));
        rows.add(new Row("max, same calls", 20, "ms", 0.25, true, true, times, CellSummary.MAX));
        rows.add(new Row("mean ms per call, same calls", 2.36, "ms", 0.02, true, true, times, TIME));
        rows.add(new Row("min, same calls", 2, "ms", 0.05, true, true, times, CellSummary.MIN));
        // two values 18 ms apart in shares 0.98 and 0.02: sd = 18 × √(0.02 × 0.98)
        rows.add(new Row("sd, same calls", 18 * Math.sqrt(0.02 * 0.98), "ms", 0.05, true, true, times,
                CellSummary.SD));
        // at batch 4 a call of 20 ms is 5 ms a sample and 200 samples/s: the stub's call does not grow with the batch
        Run batch4 = run("batch-4", "InferenceBenchmark", "call=20ms", "-p", "model=mlp-tiny", "-p", "batchSize=4",
                "-p", "threads=1");
        rows.add(new Row("per sample (" + SamplesProfiler.PER_SAMPLE + "), 20 ms call at batch 4", 5, "ms", 0.02, true,
                true, batch4, SamplesProfiler.PER_SAMPLE));
        rows.add(new Row(SamplesProfiler.LABEL + "/s, 20 ms call at batch 4", 200, "samples/s", 0.02, true, true,
                batch4, SamplesProfiler.LABEL));
        rows.add(new Row("load ms (" + SetupProfiler.LOAD_TIME + "), 5 s planted, less the engine's own", 5000, "ms",
                0.05, true, true, times, SetupProfiler.LOAD_TIME, base));
        rows.add(new Row("first ms (" + SetupProfiler.FIRST_INFERENCE + "), 500 ms planted on a 2 ms call", 502, "ms",
                0.05, true, true, times, SetupProfiler.FIRST_INFERENCE));
        // two JVMs' starts (this fork's and the base's, minutes apart) differ by hundreds of ms on a shared VM: 8 %,
        // which still fails a reading that misses the 500 ms first call (docs/evidence/calibration.md)
        rows.add(new Row("process->first ms (" + SetupProfiler.PROCESS_TO_FIRST_RESULT + "), 5 s load + 500 ms first,"
                + " less the engine's own", 5500, "ms", 0.08, true, true, times,
                SetupProfiler.PROCESS_TO_FIRST_RESULT, base));
        Run heldNative = inference("native", "call=2ms,native=512MiB");
        rows.add(new Row("model native MiB (" + MemoryProfiler.NATIVE_MODEL + "), 512 MiB held, less the engine's own",
                512, "MiB", 0.05, true, true, heldNative, MemoryProfiler.NATIVE_MODEL, base));
        rows.add(new Row("rss peak MiB (" + MemoryProfiler.RSS_PEAK + "), same", 512, "MiB", 0.05, true, true,
                heldNative, MemoryProfiler.RSS_PEAK, base));
        rows.add(new Row("heap MiB (" + MemoryProfiler.HEAP_USED + "), 256 MiB held, less the engine's own", 256,
                "MiB", 0.05, true, true, inference("heap", "call=2ms,heap=256MiB"), MemoryProfiler.HEAP_USED, base));
    }

    /**
     * The generation table's other columns, from the same decoder run as TTFT and TPOT (a 20 ms prefill, 5 ms a
     * token, 16 prompt and 8 output tokens, one request after another): each request takes 20 + 7 × 5 = 55 ms, its
     * gaps between tokens are 5 ms, the prefill is 20 / 55 of it, and tokens/s are tokens over request time. The
     * cache's bytes per token follow from llama-tiny's shape (2 layers, 2 key-value heads of 16 floats, a key and a
     * value each), written out here rather than taken from the decoder's layout.
     */
    private static void generationRows(List<Row> rows, Run generation) {
        rows.add(new Row(GenerationFigures.E2E + " (GenerationBenchmark)", 55, "ms", 0.05, true, true, generation,
                GenerationFigures.E2E));
        rows.add(new Row(GenerationFigures.itl(50) + " (GenerationBenchmark)", 5, "ms", 0.05, true, true, generation,
                GenerationFigures.itl(50)));
        rows.add(new Row(GenerationFigures.itl(90) + " (GenerationBenchmark)", 5, "ms", 0.05, true, true, generation,
                GenerationFigures.itl(90)));
        rows.add(new Row(GenerationFigures.OUTPUT_TOKENS + " (GenerationBenchmark)", 8 / 0.055, "tokens/s", 0.05,
                true, true, generation, GenerationFigures.OUTPUT_TOKENS));
        rows.add(new Row(GenerationFigures.TOTAL_TOKENS + " (GenerationBenchmark)", 24 / 0.055, "tokens/s", 0.05,
                true, true, generation, GenerationFigures.TOTAL_TOKENS));
        rows.add(new Row(GenerationFigures.PREFILL_SHARE + " (GenerationBenchmark)", 100 * 20 / 55.0, "%", 0.05, true,
                true, generation, GenerationFigures.PREFILL_SHARE));
        rows.add(new Row(GenerationFigures.KV_BYTES + " (llama-tiny: 2 layers x key and value x 2 heads x 16 floats)",
                2 * 2 * 2 * 16 * 4, "B/token", 0, true, true, generation, GenerationFigures.KV_BYTES));
    }

    /**
     * TTFT's and TPOT's percentiles over the requests: every request of the stub decoder takes the same prefill and
     * the same time a token, so each percentile is the planted time. p50 and p90 need 20 and 100 requests in an
     * iteration: 2 ms prefills and 1 ms tokens (5 ms requests) give them in seconds. A p99 needs 1,000, and at 1 ms a
     * token one scheduler hiccup in a hundred requests moves it by a tenth (close alone, far off beside a full
     * build), so the p99 rows plant the generation rows' 20 ms and 5 ms and run a minute: not in the fast table.
     */
    private static void generationTailRows(List<Row> rows) {
        Run fast = generationStub("generation-tail", "prefill=2ms,token=1ms", 4, 2, "6s");
        Run slow = generationStub("generation-p99", "prefill=20ms,token=5ms", 8, 1, "60s");
        for (double p : GenerationFigures.TOKEN_PERCENTILES) {
            boolean quick = p < 99;
            Run run = quick ? fast : slow;
            String ttft = GenerationFigures.percentile(GenerationFigures.TTFT, p);
            String tpot = GenerationFigures.percentile(GenerationFigures.TPOT, p);
            rows.add(new Row(ttft + " (GenerationBenchmark, " + (quick ? "2" : "20") + " ms prefill)", quick ? 2 : 20,
                    "ms", 0.05, true, quick, run, ttft));
            rows.add(new Row(tpot + " (GenerationBenchmark, " + (quick ? "1" : "5") + " ms tokens)", quick ? 1 : 5,
                    "ms", 0.05, true, quick, run, tpot));
        }
    }

    private static Run generationStub(String name, String plant, int outputLen, int iterations, String iteration) {
        return new Run(name, List.of("GenerationBenchmark", "-p", "engine=stub", "-p", "model=llama-tiny", "-p",
                "promptLen=16", "-p", "outputLen=" + outputLen, "-p", "threads=1", "-p", "batchSize=1", "-f", "1",
                "-wi", "1", "-w", "500ms", "-i", Integer.toString(iterations), "-r", iteration, "-jvmArgsAppend",
                STUB + plant));
    }

    private static Run inference(String name, String plant) {
        return run(name, "InferenceBenchmark", plant, "-p", "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1");
    }

    static Run serving(String name, String plant, String... more) {
        List<String> args = new ArrayList<>(List.of("-p", "model=mlp-tiny", "-p", "threads=1"));
        if (Arrays.stream(more).noneMatch(a -> a.startsWith("batchSize="))) {
            args.addAll(List.of("-p", "batchSize=1"));
        }
        args.addAll(List.of(more));
        return run(name, "ServingBenchmark", plant, args.toArray(String[]::new));
    }

    static Run run(String name, String benchmark, String plant, String... params) {
        List<String> args = new ArrayList<>(List.of(benchmark, "-p", "engine=stub"));
        args.addAll(List.of(params));
        if (!benchmark.equals("ServingBenchmark") && !benchmark.equals("GenerationLoadBenchmark")) {
            args.addAll(ONE_FORK);
        } else {
            args.addAll(List.of("-f", "1"));
        }
        args.addAll(List.of("-jvmArgsAppend", STUB + plant));
        return new Run(name, List.copyOf(args));
    }

    /**
     * The one cell's figure {@code metric} as the summary reads it: the mean over forks of each fork's last value for
     * a figure given over the fork so far (memory growth), else its score; NaN when absent.
     */
    static double read(List<MeasuredCell> cells, String metric) {
        if (cells.size() != 1) {
            return Double.NaN;
        }
        MeasuredCell cell = cells.get(0);
        String unit = cell.primary().unit();
        if (metric.equals(TIME)) {
            return Units.convert(Arrays.stream(cell.callMeans()).flatMapToDouble(Arrays::stream).average()
                    .orElse(Double.NaN), unit, "ms");
        }
        if (metric.equals(SamplesProfiler.PER_SAMPLE) && cell.secondary().containsKey(metric)) {
            JmhMetric m = cell.secondary().get(metric);
            return Units.convert(MetricCatalogue.forkRule(metric).value(m), m.unit().replace("/sample", ""), "ms");
        }
        if (metric.equals(P50) || metric.equals(P99) || metric.equals(CellSummary.P95)
                || metric.equals(CellSummary.MAX) || metric.equals(CellSummary.MIN) || metric.equals(CellSummary.SD)) {
            CellSummary s = CellSummary.of(cell);
            double v = metric.equals(P50) ? s.p50() : metric.equals(P99) ? s.p99()
                    : s.extras().getOrDefault(metric, Double.NaN);
            return Units.convert(v, unit, "ms");
        }
        if (metric.contains(MINUS)) {
            String[] two = metric.split(MINUS, 2);
            return read(cells, two[0]) - read(cells, two[1]);
        }
        Map<String, JmhMetric> secondary = cells.get(0).secondary();
        JmhMetric m = secondary.get(metric);
        if (m == null) {
            return Double.NaN;
        }
        return MetricCatalogue.forkRule(metric).value(m);
    }
}
