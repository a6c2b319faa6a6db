package dev.inferbench.run;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.BenchmarkResultMetaData;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.results.ScalarResult;
import org.openjdk.jmh.results.SingleShotResult;
import org.openjdk.jmh.results.TextResult;
import org.openjdk.jmh.results.ThroughputResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.SampleBuffer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A fork kept as a plain record and read back is the same JMH result: every format JMH writes gives the same bytes
 * for it, alone and merged with others, for every kind of result a run produces. Records that are not one are
 * refused with what was wrong, and nothing in a record names a class to make.
 */
class ForkRecordTest {
    private static final Random RANDOM = new Random(7);
    /**
     * Calls a SampleTime thread records in an iteration: each is a distinct value, which JMH's formats sort into its
     * percentiles again for every line they print, so more only cost seconds.
     */
    private static final int SAMPLES = 200;

    private static BenchmarkParams params(Mode mode, TimeUnit unit) {
        WorkloadParams w = new WorkloadParams();
        w.put("model", "mlp-tiny", 0);
        w.put("batchSize", "8", 1);
        return new BenchmarkParams("dev.inferbench.bench.FakeBenchmark.call", "gen.call_" + mode.shortLabel(), true,
                2, new int[]{2}, List.of(), 3, 0, new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1),
                new IterationParams(IterationType.MEASUREMENT, 3, TimeValue.milliseconds(700), 1), mode, w, unit, 1,
                "/usr/bin/java", List.of("-Xmx1g", "-Da=b,c"), "17.0.9", "OpenJDK 64-Bit Server VM", "17.0.9+9",
                "1.37", TimeValue.minutes(10));
    }

    /** A random score with all its bits used, unlike the whole numbers a test is tempted to pick. */
    private static double score() {
        return RANDOM.nextDouble() * Math.pow(10, RANDOM.nextInt(8) - 3);
    }

    /** One fork: two threads, three iterations, profilers of every policy, a label one iteration lacks, text. */
    private static RunResult fork(Mode mode) {
        TimeUnit unit = mode == Mode.Throughput ? TimeUnit.SECONDS : TimeUnit.MILLISECONDS;
        BenchmarkParams p = params(mode, unit);
        List<IterationResult> its = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            IterationResult it = new IterationResult(p, p.getMeasurement(), new IterationResultMetaData(1000 + i, 990));
            for (int t = 0; t < 2; t++) {
                long ns = 1_000_000L + RANDOM.nextInt(1_000_000);
                it.addResult(switch (mode) {
                    case Throughput -> new ThroughputResult(ResultRole.PRIMARY, "call", 1 + RANDOM.nextInt(999), ns, unit);
                    case AverageTime -> new AverageTimeResult(ResultRole.PRIMARY, "call", 3 + RANDOM.nextInt(97), ns, unit);
                    case SingleShotTime -> new SingleShotResult(ResultRole.PRIMARY, "call", ns, 7, unit);
                    default -> new SampleTimeResult(ResultRole.PRIMARY, "call", samples(), unit);
                });
            }
            it.addResult(new ScalarResult("mem.rss.peak", score(), "MB", AggregationPolicy.MAX));
            it.addResult(new ScalarResult("samples", score(), "samples/s", AggregationPolicy.AVG));
            it.addResult(new ScalarResult("gc.count", RANDOM.nextInt(5), "counts", AggregationPolicy.SUM));
            it.addResult(new ScalarResult("load.min", score(), "ms", AggregationPolicy.MIN));
            it.addResult(new ScalarResult("nan", Double.NaN, "ms", AggregationPolicy.AVG));
            it.addResult(new ThroughputResult(ResultRole.SECONDARY, "aux", 17, 3_000_000L, unit));
            if (i != 1) {
                it.addResult(new ScalarResult("gc.churn", score(), "MB/sec", AggregationPolicy.AVG));
            }
            its.add(it);
        }
        BenchmarkResultMetaData md = new BenchmarkResultMetaData(11, 22, 33, 44, 55);
        md.adjustStart(5);
        BenchmarkResult br = new BenchmarkResult(p, its, md);
        br.addBenchmarkResult(new TextResult("a profiler's report\nof two lines, with \"quotes\"", "stack"));
        br.addBenchmarkResult(new ScalarResult("load.time", score(), "ms", AggregationPolicy.AVG));
        return new RunResult(p, List.of(br));
    }

    private static SampleBuffer samples() {
        SampleBuffer b = new SampleBuffer();
        for (int i = 0; i < SAMPLES; i++) {
            b.add((long) (1e6 * Math.exp(RANDOM.nextGaussian())));
        }
        return b;
    }

    private static RunResult roundTrip(RunResult r) {
        return ForkRecord.read(ForkRecord.of(r).toJson());
    }

    private static String written(ResultFormatType type, List<RunResult> results) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        ResultFormatFactory.getInstance(type, ps).writeOut(results);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyModeReadsBackToTheSameBytesInEveryFormatAloneAndMerged() {
        for (Mode mode : new Mode[]{Mode.Throughput, Mode.AverageTime, Mode.SampleTime, Mode.SingleShotTime}) {
            List<RunResult> forks = List.of(fork(mode), fork(mode), fork(mode));
            List<RunResult> read = forks.stream().map(ForkRecordTest::roundTrip).toList();
            RunResult merged = ResultFile.merge(forks);
            RunResult mergedRead = ResultFile.merge(read);
            for (ResultFormatType type : ResultFormatType.values()) {
                assertThat(written(type, read)).as("%s %s, forks alone", mode, type).isEqualTo(written(type, forks));
                assertThat(written(type, List.of(mergedRead))).as("%s %s, merged", mode, type)
                        .isEqualTo(written(type, List.of(merged)));
            }
            assertThat(read.get(0).getSecondaryResults().get("stack").extendedInfo())
                    .isEqualTo("a profiler's report\nof two lines, with \"quotes\"");
            assertThat(mergedRead.getSecondaryResults().get("stack").extendedInfo())
                    .isEqualTo(merged.getSecondaryResults().get("stack").extendedInfo());
            assertThat(merged.getPrimaryResult().extendedInfo()).isEqualTo(mergedRead.getPrimaryResult().extendedInfo());
        }
    }

    @Test
    void whatJmhKeepsBesideTheScoresComesBackToo() {
        RunResult original = fork(Mode.SampleTime);
        RunResult read = roundTrip(original);
        assertThat(read.getParams()).isEqualTo(original.getParams());
        assertThat(read.getParams().getJvmArgs()).containsExactly("-Xmx1g", "-Da=b,c");
        assertThat(read.getParams().getParam("batchSize")).isEqualTo("8");
        assertThat(read.getParams().getTimeout()).isEqualTo(TimeValue.minutes(10));
        BenchmarkResult br = read.getBenchmarkResults().iterator().next();
        assertThat(br.getMetadata().getStartTime()).isEqualTo(5);
        assertThat(br.getMetadata().getMeasurementOps()).isEqualTo(55);
        IterationResult first = br.getIterationResults().iterator().next();
        assertThat(first.getMetadata().getAllOps()).isEqualTo(1000);
        assertThat(first.getRawPrimaryResults()).hasSize(2);
        assertThat(first.getPrimaryResult().getSampleCount()).isEqualTo(2 * SAMPLES);
        // the record is plain JSON that names no class
        String json = new String(ForkRecord.of(original).toJson(), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("org.openjdk", "java.util", "@class").contains("\"kind\":\"SAMPLE_TIME\"");
    }

    @Test
    void aRecordThatIsNotOneIsRefusedWithWhatWasWrong() {
        String good = new String(ForkRecord.of(fork(Mode.AverageTime)).toJson(), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> read("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> read("{\"a\": 1}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> read("{\"format\": 1, \"a\": 1}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"a\"");
        assertThatThrownBy(() -> read(good.replace("\"format\":1", "\"format\":2")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("format 2; expected 1");
        assertThatThrownBy(() -> read(good.replaceFirst("\"kind\":\"AVERAGE_TIME\"", "\"kind\":\"java.lang.Runtime\"")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("java.lang.Runtime");
        assertThatThrownBy(() -> read(good.replaceFirst("\"kind\":\"SCALAR\"", "\"kind\":\"SCALAR\",\"@class\":"
                + "\"java.lang.ProcessBuilder\""))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("@class");
        assertThatThrownBy(() -> read(good.replaceFirst("\"kind\":\"SCALAR\",\"role\":\"SECONDARY\"",
                "\"kind\":\"SCALAR\",\"role\":\"PRIMARY\"")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a scalar is a secondary result");
        assertThatThrownBy(() -> read(good.replace("\"unit\":\"MB\"", "\"unit\":null")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unit");
        assertThatThrownBy(() -> read(good + "{}")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> read("{\"params\":{\"params\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}}"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static RunResult read(String json) {
        return ForkRecord.read(json.getBytes(StandardCharsets.UTF_8));
    }
}
