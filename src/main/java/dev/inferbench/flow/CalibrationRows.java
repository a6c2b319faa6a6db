package dev.inferbench.flow;

import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.metrics.CallBytesProfiler;
import dev.inferbench.metrics.CpuProfiler;
import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.serve.QueueModel;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.Slo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The planted truths, one row each: a run of the {@code stub} engine (or the leaking fault, or the slowdown aid) whose
 * true value is known, the figure that must read it back, and how close. Each row names the run it reads; rows that
 * read the same run share it. The fast rows (seconds each) run in {@code mvn verify}; the others take minutes (rate
 * searches with 10 s steps, a comparison of two runs).
 */
final class CalibrationRows {
    /** A run of the jar: JMH arguments after the benchmark's name; rows with equal arguments share one run. */
    record Run(String name, List<String> args) {
    }

    /**
     * @param figure    the figure, as the summary or tables name it, and the setting
     * @param planted   the true value
     * @param unit      its unit
     * @param tolerance the largest error allowed: absolute in {@code unit} when {@code relative} is false, else a share
     * @param fast      whether it runs in {@code mvn verify}
     * @param run       the run it reads
     * @param metric    the secondary metric read (the run's one cell), or {@link #RATIO} for the comparison's ratio
     */
    record Row(String figure, double planted, String unit, double tolerance, boolean relative, boolean fast, Run run,
               String metric) {
        boolean holds(double reading) {
            double error = Math.abs(reading - planted);
            return !Double.isNaN(reading) && error <= (relative ? tolerance * Math.abs(planted) : tolerance);
        }
    }

    /** The ratio of the slowed run's mean time to the plain run's, from {@code compare}. */
    static final String RATIO = "ratio";
    /** The cell's mean time per call, as the summary reads it (its primary metric, in its unit). */
    static final String TIME = "time";
    static final String STUB = "-Dinferbench.stub=";
    /** Between two metric names: the first less the second. */
    static final String MINUS = " - ";
    private static final List<String> ONE_FORK = List.of("-f", "1", "-wi", "1", "-w", "500ms", "-i", "2", "-r", "1s");

    private CalibrationRows() {
    }

    static List<Row> all() {
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
        // the resident set, not the bytes allocated: a kernel that reclaims cold pages (DAMON's kdamond runs on the
        // VMs this was calibrated on) takes some of the leak back; five runs read -11.9 to +0.9 %
        rows.add(new Row(MemoryProfiler.RSS_GROWTH + ", leaking 1 MiB per 2^20 calls", 1e4 / (1 << 20), "MiB/10k calls",
                0.2, true, true, new Run("leak", List.of("FaultInjectionBenchmark", "-p", "fault=leak", "-f", "1", "-wi", "1",
                "-w", "1s", "-i", "2", "-r", "2s")), MemoryProfiler.RSS_GROWTH));
        // 5 req/s of 55 ms requests (ρ = 0.275): a tenth wait over 43 ms, so TTFT's p90, counted from the arrival
        // the schedule intended, is 63 ms; counted from the call's start it would read the prefill's 20 ms
        double service = 0.020 + 7 * 0.005;
        double p90Wait = Math.log(0.9 / (1 - 5 * service)) / 5;
        rows.add(new Row("serve.ttft.p90 under load at 5 req/s (M/D/1)", 20 + 1e3 * p90Wait, "ms", 0.1, true, false,
                run("generation-load-p90", "GenerationLoadBenchmark", "prefill=20ms,token=5ms", "-p", "model=llama-tiny",
                        "-p", "promptLen=16", "-p", "outputLen=8", "-p", "batchSize=1", "-p", "threads=1",
                        "-p", "rate=5",
                        "-p", "requests=600", "-p", "stepSeconds=0"),
                ServingProfiler.tokenLabel(Slo.Metric.TTFT, 90)));
        rows.add(new Row("serve.sustainable, 1 ms service, p50<2s (capacity)", 1000, "req/s", 0.05, true, false,
                serving("capacity", "call=1ms", "-p", "rate=max", "-p", "slo=p50<2s"), ServingProfiler.SUSTAINABLE));
        // 4 ms calls and a 20 ms bound (M/D/1 scales: the knee is 1 ms's at 5 ms, divided by 4), so that the late
        // rule's 2 ms is far from what one scheduler thread keeps on 2 cores; at 1 ms and p90<5ms (0.5 ms) some runs'
        // steps were INVALID (late) from 350 req/s up, and the knee line said the generator set it
        rows.add(new Row("serve.sustainable, 4 ms service, p90<20ms (M/D/1)", QueueModel.kneeRate(90, 0.020, 0.004),
                "req/s", 0.05, true, false, serving("knee-p90", "call=4ms", "-p", "rate=max", "-p", "slo=p90<20ms"),
                ServingProfiler.SUSTAINABLE));
        rows.add(new Row("compare ratio, 10 % injected slowdown", 1.10, "x", 0.03, true, false,
                new Run("slowdown", List.of("InferenceBenchmark", "-p", "model=mlp-tiny", "-p", "threads=1", "-p",
                        "batchSize=1", "--forks", "10", "-wi", "1", "-w", "1s", "-i", "2", "-r", "1s")), RATIO));
        return rows;
    }

    private static Run inference(String name, String plant) {
        return run(name, "InferenceBenchmark", plant, "-p", "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1");
    }

    private static Run serving(String name, String plant, String... more) {
        List<String> args = new ArrayList<>(List.of("-p", "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1"));
        args.addAll(List.of(more));
        return run(name, "ServingBenchmark", plant, args.toArray(String[]::new));
    }

    private static Run run(String name, String benchmark, String plant, String... params) {
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
        if (metric.equals(TIME)) {
            return Arrays.stream(cells.get(0).callMeans()).flatMapToDouble(Arrays::stream).average()
                    .orElse(Double.NaN);
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
