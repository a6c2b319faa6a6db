package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SingleShotResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * JMH results made by hand, as one fork of a cell would produce them: single-shot iterations in milliseconds whose
 * scores are the given whole numbers of milliseconds, so that the values read back from JSON compare exactly.
 */
final class ForkResults {
    private ForkResults() {
    }

    /** A cell of a made-up benchmark with one parameter. */
    static Cell cell(String value) {
        return new Cell("dev.inferbench.bench.FakeBenchmark.call", "ss", java.util.Map.of("size", value));
    }

    /** One fork of {@code cell} whose measurement iterations scored {@code millis} (ms per operation). */
    static RunResult fork(Cell cell, long... millis) {
        BenchmarkParams params = params(cell, millis.length);
        List<IterationResult> iterations = new ArrayList<>();
        for (long ms : millis) {
            IterationResult it = new IterationResult(params, params.getMeasurement(), new IterationResultMetaData(1, 1));
            it.addResult(new SingleShotResult(ResultRole.PRIMARY, "call", TimeUnit.MILLISECONDS.toNanos(ms),
                    TimeUnit.MILLISECONDS));
            iterations.add(it);
        }
        return new RunResult(params, List.of(new BenchmarkResult(params, iterations)));
    }

    private static BenchmarkParams params(Cell cell, int iterations) {
        WorkloadParams workload = new WorkloadParams();
        int order = 0;
        for (var e : cell.params().entrySet()) {
            workload.put(e.getKey(), e.getValue(), order++);
        }
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, TimeValue.NONE, 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, iterations, TimeValue.NONE, 1);
        return new BenchmarkParams(cell.benchmark(), cell.benchmark() + "_jmhTest.call_ss", false, 1, new int[]{1},
                List.of(), 1, 0, warmup, measurement, Mode.SingleShotTime, workload, TimeUnit.MILLISECONDS, 1,
                "/usr/bin/java", List.of("-Xmx256m"), "17", "OpenJDK 64-Bit Server VM", "17+35", "1.37",
                TimeValue.minutes(10));
    }
}
