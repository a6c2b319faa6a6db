package dev.inferbench.metrics;

import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.ModelSignature;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.report.ReportRows;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.MemoryGrowth;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.tensor.HostTensor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The growth verdict end to end on a default run's shape (1 warm-up and 2 measured iterations per fork): engine stubs
 * whose calls hold memory (leaking, warming up, or neither) run through the memory profiler as a JMH fork would run
 * them, fork after fork; the per-fork figures go through the cell model ({@link CellSummary}) to the verdict. The
 * resident set the sampler reads is the stub's memory over a fixed base, with seeded noise of a few MiB (the heap and
 * the allocator move by that much); time advances 1 µs per call, so readings are placed on the calls' axis exactly.
 */
class LeakingEngineTest {
    private static final int CALLS_PER_ITERATION = 1000;
    private static final int READ_EVERY = 10;

    /** An engine whose calls hold {@code kbPerCall} more memory each, for its first {@code growingCalls} calls. */
    static final class HoldingEngine implements InferenceEngine {
        final long kbPerCall;
        final long growingCalls;
        long calls;
        long heldKb;

        HoldingEngine(long kbPerCall, long growingCalls) {
            this.kbPerCall = kbPerCall;
            this.growingCalls = growingCalls;
        }

        @Override
        public ModelSignature signature() {
            throw new UnsupportedOperationException();
        }

        @Override
        public PreparedInput prepare(List<HostTensor> inputs) {
            return () -> { };
        }

        @Override
        public Outputs run(PreparedInput input) {
            if (calls++ < growingCalls) {
                heldKb += kbPerCall;
            }
            return null;
        }

        @Override
        public void close() {
            heldKb = 0;
        }
    }

    @AfterEach
    void forget() {
        SetupRecord.clear();
        ResidentPeak.clear();
    }

    private static BenchmarkParams params() {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(2), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, 2, TimeValue.seconds(1), 1);
        return new BenchmarkParams("b.Bench.infer", "b.Bench_infer_jmhTest", false, 1, new int[]{1}, List.of(), 1, 0,
                warmup, measurement, Mode.SampleTime, new WorkloadParams(), TimeUnit.MILLISECONDS, 1,
                "/usr/bin/java", List.of(), "17", "vm", "17", "1.37", TimeValue.minutes(1));
    }

    /** One fork: a fresh engine and profiler, the warm-up iteration, then the measured ones; its results by label. */
    private static Map<String, List<Double>> fork(HoldingEngine engine, Random noise) throws Exception {
        long[] now = {0};
        RssSampler sampler = new RssSampler(() -> 300 * 1024 + engine.heldKb + noise.nextInt(3 * 1024),
                () -> now[0], 0);
        MemoryProfiler profiler = new MemoryProfiler(sampler);
        BenchmarkParams p = params();
        Map<String, List<Double>> results = new TreeMap<>();
        List<IterationParams> iterations = List.of(p.getWarmup(), p.getMeasurement(), p.getMeasurement());
        for (IterationParams it : iterations) {
            profiler.beforeIteration(p, it);
            try (PreparedInput in = engine.prepare(List.of())) {
                for (int c = 1; c <= CALLS_PER_ITERATION; c++) {
                    engine.run(in);
                    now[0] += 1000;
                    if (c % READ_EVERY == 0) {
                        sampler.sampleNow();
                    }
                }
            }
            IterationResult r = new IterationResult(p, it, new IterationResultMetaData(CALLS_PER_ITERATION,
                    CALLS_PER_ITERATION));
            for (Result res : profiler.afterIteration(p, it, r)) {
                results.computeIfAbsent(res.getLabel(), k -> new ArrayList<>()).add(res.getScore());
            }
        }
        engine.close();
        return results;
    }

    private static MemoryGrowth verdict(int forks, long kbPerCall, long growingCalls) throws Exception {
        Random noise = new Random(7);
        Map<String, List<List<Double>>> raw = new LinkedHashMap<>();
        for (int f = 0; f < forks; f++) {
            fork(new HoldingEngine(kbPerCall, growingCalls), noise)
                    .forEach((label, values) -> raw.computeIfAbsent(label, k -> new ArrayList<>()).add(values));
        }
        Map<String, JmhMetric> secondary = new LinkedHashMap<>();
        raw.forEach((label, perFork) -> secondary.put(label, metric(perFork)));
        List<List<Double>> time = new ArrayList<>();
        for (int f = 0; f < forks; f++) {
            time.add(List.of(1.0, 1.0));
        }
        MeasuredCell cell = new MeasuredCell("b.Bench.infer", "avgt", 1, forks, Map.of("model", "stub"), metric(time),
                secondary, Map.of());
        CellSummary summary = CellSummary.of(cell);
        // the report shows the fork figure the summary judges (each fork's last iteration), not JMH's score
        assertThat(ReportRows.of("run", cell).extra().get(MemoryProfiler.RSS_GROWTH).value())
                .isEqualTo(summary.extras().get(MemoryProfiler.RSS_GROWTH));
        return MemoryGrowth.of(summary);
    }

    private static JmhMetric metric(List<List<Double>> raw) {
        double score = raw.stream().flatMap(List::stream).mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        return new JmhMetric(score, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), "MiB", raw,
                List.of());
    }

    @Test
    void aLeakingEngineIsFlaggedOnADefaultRunsTwoMeasuredIterations() throws Exception {
        // 16 KiB per call, never given back: 15.6 MiB over the later half's 1,000 calls, 156 MiB per 10,000 calls
        MemoryGrowth g = verdict(4, 16, Long.MAX_VALUE);
        assertThat(g.kind()).isEqualTo(MemoryGrowth.Kind.GROWS);
        assertThat(g.rate()).isBetween(140.0, 172.0);
        assertThat(g.grown()).isBetween(14.0, 17.2);
    }

    @Test
    void anEngineThatWarmsUpIntoTheMeasuredCallsIsNotALeak() throws Exception {
        // 64 KiB per call for the first 1,500 calls: the warm-up iteration's 1,000 and half the first measured one's
        MemoryGrowth g = verdict(4, 64, CALLS_PER_ITERATION * 3 / 2);
        assertThat(g.kind()).isEqualTo(MemoryGrowth.Kind.SETTLES);
        assertThat(g.grewEarly()).isBetween(28.0, 35.0);
    }

    @Test
    void anEngineThatHoldsNothingMoreIsFlat() throws Exception {
        assertThat(verdict(4, 64, 0).kind()).isEqualTo(MemoryGrowth.Kind.FLAT);
        assertThat(verdict(4, 64, CALLS_PER_ITERATION).kind()).as("warm-up over before the measured calls")
                .isEqualTo(MemoryGrowth.Kind.FLAT);
    }

    @Test
    void oneForkIsNotJudged() throws Exception {
        assertThat(verdict(1, 16, Long.MAX_VALUE).kind()).isEqualTo(MemoryGrowth.Kind.NOT_JUDGED);
    }
}
