package dev.inferbench.bench;

import dev.inferbench.results.RunLayout;
import java.util.stream.Stream;
import java.util.Comparator;
import dev.inferbench.BenchException;
import dev.inferbench.report.Reports;
import dev.inferbench.run.JmhResultWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.SampleBuffer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Not an inference measurement: how long {@code report} takes for a big matrix ({@code cells} synthetic SampleTime
 * cells over 50 models, 3 forks x 5 iterations each, with samples/s and a memory metric), every format but the plots
 * (Markdown, HTML, CSV, github-action-benchmark, Bencher, JMH export), reading the JSON included. Target: 2 s for
 * 10,000 cells.
 *
 * <pre>java -jar target/benchmarks.jar ReportBenchmark -f 1 -wi 2 -i 8</pre>
 */
// SingleShotTime: one report is one user action, cold caches included; steady state would flatter it.
@BenchmarkMode(Mode.SingleShotTime)
// Milliseconds: the target is stated in seconds, a report takes hundreds of ms.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ReportBenchmark {

    @Param("10000")
    public int cells;

    private Path run;
    private Path out;
    private int written;

    @Setup(Level.Trial)
    public void synthesize() throws IOException {
        run = Files.createTempDirectory("inferbench-report-bench");
        out = run.resolve("report");
        Random random = new Random(42);
        List<RunResult> all = new ArrayList<>();
        String[] engines = {"ort", "djl-ort", "djl-pytorch"};
        for (int i = 0; i < cells; i++) {
            WorkloadParams params = new WorkloadParams();
            params.put("batchSize", Integer.toString(1 << (i % 6)), 0);
            params.put("device", "cpu", 1);
            params.put("engine", engines[i / 6 % 3], 2);
            params.put("model", "model-" + (i % 50), 3);
            params.put("threads", Integer.toString(i / 18), 4);
            all.add(cell(params, random, 1 + random.nextDouble() * 50));
        }
        // JMH's own writer, as the run folder's jmh-result.json is written
        try (OutputStream o = Files.newOutputStream(RunLayout.of(run).result())) {
            JmhResultWriter.writeJson(all, o);
        }
    }

    /** One cell: 3 forks of 5 SampleTime iterations of calls around {@code baseMs}, samples/s and a memory peak. */
    private static RunResult cell(WorkloadParams workload, Random random, double baseMs) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, TimeValue.seconds(1), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, 5, TimeValue.seconds(1), 1);
        String name = "dev.inferbench.bench.InferenceBenchmark.infer";
        BenchmarkParams params = new BenchmarkParams(name, name + "_jmhTest", false, 1, new int[]{1}, List.of(), 3, 0,
                warmup, measurement, Mode.SampleTime, workload, TimeUnit.MILLISECONDS, 1, "java", List.of(), "17",
                "vm", "17", "1.37", TimeValue.minutes(10));
        List<BenchmarkResult> forks = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            List<IterationResult> iterations = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                SampleBuffer buffer = new SampleBuffer();
                for (int b = 0; b < 8; b++) {
                    long ns = Math.round(baseMs * 1e6 * (1 + b * 0.05 + random.nextDouble() * 0.01));
                    for (int n = 1 + random.nextInt(20); n > 0; n--) {
                        buffer.add(ns);
                    }
                }
                IterationResult it = new IterationResult(params, measurement, new IterationResultMetaData(80, 80));
                it.addResult(new SampleTimeResult(ResultRole.PRIMARY, "infer", buffer, TimeUnit.MILLISECONDS));
                it.addResult(new ScalarResult("samples", 1000 / baseMs, "samples/s", AggregationPolicy.AVG));
                it.addResult(new ScalarResult("mem.rss.peak", 400 + baseMs, "MB", AggregationPolicy.MAX));
                iterations.add(it);
            }
            forks.add(new BenchmarkResult(params, iterations));
        }
        return new RunResult(params, forks);
    }

    /** The synthetic run is 37 MB and its report 54 MB: left behind, every run of this benchmark filled /tmp. */
    @TearDown(Level.Trial)
    public void removeRun() throws IOException {
        try (Stream<Path> files = Files.walk(run)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Benchmark
    public int report() throws BenchException {
        written = Reports.write(List.of(run), out, EnumSet.complementOf(EnumSet.of(Reports.Format.PLOTS))).size();
        return written;
    }
}
