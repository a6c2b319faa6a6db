package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.ForkTime;
import dev.inferbench.run.Plan;
import dev.inferbench.run.RunStore;
import dev.inferbench.run.Shard;
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
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.SampleBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Not an inference measurement: what the run loop's bookkeeping costs over a whole plan, so that it stays linear in
 * the number of forks. One operation persists {@code forks} forks, round by round over {@code cells} cells, each as
 * the loop does it: the fork saved, then jmh-result.json rebuilt from every landed fork. The forks are synthetic
 * SampleTime results (2 iterations of 300 histogram bins each), made in the setup.
 *
 * <pre>java -jar target/benchmarks.jar RunStoreBenchmark -f 1 -wi 0 -i 3 -p forks=250,500,1000</pre>
 */
// SingleShotTime: one operation is one whole run's bookkeeping; repeated, it would find its files cached.
@BenchmarkMode(Mode.SingleShotTime)
// Seconds: a plan of 1,000 forks takes seconds of bookkeeping; the fork time it sits beside is ~5 s per fork.
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class RunStoreBenchmark {

    @Param("1000")
    public int forks;

    @Param("100")
    public int cells;

    private final List<Cell> plan = new ArrayList<>();
    private final List<RunResult> results = new ArrayList<>();
    private Path root;

    @Setup(Level.Trial)
    public void synthesize() throws IOException {
        root = Files.createTempDirectory("inferbench-store-bench");
        Random random = new Random(42);
        for (int c = 0; c < cells; c++) {
            Cell cell = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample",
                    Map.of("model", "m" + c, "batchSize", "1"));
            plan.add(cell);
            results.add(fork(cell, random));
        }
    }

    @Benchmark
    public int persistEveryFork() throws IOException, BenchException {
        Path dir = Files.createTempDirectory(root, "run");
        int rounds = (forks + cells - 1) / cells;
        Plan p = Plan.of(List.of("-p", "model=m"), null, rounds, new Plan.Settings(1, "1 s", 2, "1 s"), Shard.WHOLE,
                plan, List.of());
        RunStore store = RunStore.create(dir, p);
        int saved = 0;
        for (int round = 1; round <= rounds && saved < forks; round++) {
            for (int c = 0; c < cells && saved < forks; c++) {
                Instant now = Instant.now();
                store.forks().save(plan.get(c), round, results.get(c), new ForkTime(now, now));
                store.result().rebuild(plan);
                saved++;
            }
        }
        return saved;
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    private static RunResult fork(Cell cell, Random random) {
        WorkloadParams workload = new WorkloadParams();
        int order = 0;
        for (var e : cell.params().entrySet()) {
            workload.put(e.getKey(), e.getValue(), order++);
        }
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, 2, TimeValue.seconds(1), 1);
        BenchmarkParams params = new BenchmarkParams(cell.benchmark(), cell.benchmark() + "_jmhTest", false, 1,
                new int[]{1}, List.of(), 1, 0, warmup, measurement, Mode.SampleTime, workload, TimeUnit.MILLISECONDS, 1,
                "java", List.of(), "17", "vm", "17", "1.37", TimeValue.minutes(10));
        List<IterationResult> iterations = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            SampleBuffer buffer = new SampleBuffer();
            for (int b = 0; b < 300; b++) {
                long ns = 20_000_000L + b * 50_000L + random.nextInt(1000);
                for (int n = 1 + random.nextInt(3); n > 0; n--) {
                    buffer.add(ns);
                }
            }
            IterationResult it = new IterationResult(params, measurement, new IterationResultMetaData(600, 600));
            it.addResult(new SampleTimeResult(ResultRole.PRIMARY, "infer", buffer, TimeUnit.MILLISECONDS));
            iterations.add(it);
        }
        return new RunResult(params, List.of(new BenchmarkResult(params, iterations)));
    }
}
