package dev.inferbench.bench;

import dev.inferbench.results.RunLayout;
import java.util.stream.Stream;
import java.util.Comparator;
import dev.inferbench.BenchException;
import dev.inferbench.report.Reports;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJsonWriter;
import dev.inferbench.results.jmh.JmhMetric;
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

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
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
        List<MeasuredCell> all = new ArrayList<>();
        String[] engines = {"ort", "djl-ort", "djl-pytorch"};
        for (int i = 0; i < cells; i++) {
            Map<String, String> params = new LinkedHashMap<>();
            params.put("batchSize", Integer.toString(1 << (i % 6)));
            params.put("device", "cpu");
            params.put("engine", engines[i / 6 % 3]);
            params.put("model", "model-" + (i % 50));
            params.put("threads", Integer.toString(i / 18));
            double base = 1 + random.nextDouble() * 50;
            all.add(new MeasuredCell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", 1, 3, params,
                    metric(random, base, "ms/op"), Map.of("samples", scalar(1000 / base, "samples/s"),
                    "mem.rss.peak", scalar(400 + base, "MB")), Map.of("jmhVersion", "1.37")));
        }
        try (OutputStream o = Files.newOutputStream(RunLayout.of(run).result())) {
            JmhJsonWriter.write(all, o);
        }
    }

    private static JmhMetric metric(Random random, double base, String unit) {
        List<List<double[]>> forks = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            List<double[]> its = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                double[] bins = new double[16];
                for (int b = 0; b < 8; b++) {
                    bins[2 * b] = base * (1 + b * 0.05 + random.nextDouble() * 0.01);
                    bins[2 * b + 1] = 1 + random.nextInt(20);
                }
                its.add(bins);
            }
            forks.add(its);
        }
        TreeMap<Double, Double> pct = new TreeMap<>(Map.of(0.0, base, 50.0, base * 1.1, 90.0, base * 1.3,
                99.0, base * 1.4, 100.0, base * 1.5));
        return new JmhMetric(base * 1.15, base * 0.05, new double[]{base * 1.1, base * 1.2}, pct, unit, List.of(), forks);
    }

    private static JmhMetric scalar(double v, String unit) {
        return new JmhMetric(v, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), unit,
                List.of(List.of(v)), List.of());
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
