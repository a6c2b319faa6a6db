package dev.inferbench.metrics;

import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhMetric;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.results.SampleTimeResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.SampleBuffer;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * SampleTime's mean over every call: the window over the calls JMH counted, not the mean of the calls it sampled;
 * and the one place a cell's mean comes from ({@link MeasuredCell#callMeans()}).
 */
class CallMeanProfilerTest {

    private static BenchmarkParams params(Mode mode, int threads) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 0, TimeValue.NONE, 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);
        return new BenchmarkParams("b.Bench.call", "b.Bench_call_jmhTest", false, threads, new int[]{threads},
                List.of(), 1, 0, warmup, measurement, mode, new WorkloadParams(), TimeUnit.MICROSECONDS, 1,
                "/usr/bin/java", List.of(), "17", "vm", "17", "1.37", TimeValue.minutes(1));
    }

    /** 500,000 calls in a 1 s window, of which SampleTime timed three, two of them slow. */
    private static IterationResult iteration(BenchmarkParams p, long calls) {
        IterationResult it = new IterationResult(p, p.getMeasurement(), new IterationResultMetaData(calls + 10, calls));
        SampleBuffer sampled = new SampleBuffer();
        sampled.add(2_000);
        sampled.add(40_000);
        sampled.add(40_000);
        it.addResult(new SampleTimeResult(ResultRole.PRIMARY, "call", sampled, TimeUnit.MICROSECONDS));
        return it;
    }

    @Test
    void theMeanCountsEveryCallOfTheWindow() {
        BenchmarkParams p = params(Mode.SampleTime, 1);
        IterationResult it = iteration(p, 500_000);
        assertThat(it.getPrimaryResult().getScore()).as("the sampled calls' mean, µs").isCloseTo(27.33, within(0.01));
        assertThat(CallMeanProfiler.meanNanos(p, p.getMeasurement(), it)).isEqualTo(2_000.0);
        var results = new CallMeanProfiler().afterIteration(p, p.getMeasurement(), it);
        assertThat(results).singleElement().satisfies(r -> {
            assertThat(r.getLabel()).isEqualTo(CallMeanProfiler.LABEL);
            assertThat(r.getScore()).isEqualTo(2.0); // µs, the benchmark's unit
        });
        // two threads each run the whole window: 1,000,000 calls in 2 s of thread time
        BenchmarkParams two = params(Mode.SampleTime, 2);
        assertThat(CallMeanProfiler.meanNanos(two, two.getMeasurement(), iteration(two, 1_000_000))).isEqualTo(2_000.0);
    }

    /** Six calls of 188 ms in a 1 s window: the window would say 167 ms; every call was timed, so the histogram says. */
    @Test
    void longCallsKeepTheTimedMean() {
        BenchmarkParams p = params(Mode.SampleTime, 1);
        IterationResult it = new IterationResult(p, p.getMeasurement(), new IterationResultMetaData(6, 6));
        SampleBuffer timed = new SampleBuffer();
        for (int i = 0; i < 6; i++) {
            timed.add(188_000_000);
        }
        it.addResult(new SampleTimeResult(ResultRole.PRIMARY, "call", timed, TimeUnit.MICROSECONDS));
        assertThat(CallMeanProfiler.meanNanos(p, p.getMeasurement(), it)).isCloseTo(188_000_000.0, within(188_000.0)); // SampleBuffer keeps 0.1 %
    }

    @Test
    void otherModesKeepTheirOwnMeanAndGetNoExtraMetric() {
        BenchmarkParams p = params(Mode.Throughput, 1);
        assertThat(CallMeanProfiler.meanNanos(p, p.getMeasurement(), iteration(p, 5))).isNaN();
        assertThat(new CallMeanProfiler().afterIteration(p, p.getMeasurement(), iteration(p, 5))).isEmpty();
        BenchmarkParams sample = params(Mode.SampleTime, 1);
        assertThat(CallMeanProfiler.meanNanos(sample, sample.getMeasurement(), iteration(sample, 0))).as("no calls").isNaN();
    }

    private static JmhMetric metric(String unit, List<List<Double>> raw, List<List<double[]>> histograms) {
        return new JmhMetric(Double.NaN, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), unit, raw,
                histograms);
    }

    @Test
    void aCellsMeanIsTheAllCallsMeanWhereItWasMeasured() {
        JmhMetric sampled = metric("us/op", List.of(), List.of(List.<double[]>of(new double[]{2, 1, 40, 2}),
                List.<double[]>of(new double[]{3, 3})));
        JmhMetric all = metric("us/op", List.of(List.of(2.0), List.of(2.5)), List.of());
        MeasuredCell with = new MeasuredCell("b.Bench.call", "sample", 1, 2, Map.of(), sampled,
                Map.of(MeasuredCell.ALL_CALLS_MEAN, all), Map.of());
        assertThat(with.callMeans()).isDeepEqualTo(new double[][]{{2.0}, {2.5}});
        MeasuredCell without = new MeasuredCell("b.Bench.call", "sample", 1, 2, Map.of(), sampled, Map.of(), Map.of());
        assertThat(without.callMeans()).isDeepEqualTo(new double[][]{{82.0 / 3}, {3.0}});
        JmhMetric otherUnit = metric("ms/op", List.of(List.of(0.002), List.of(0.0025)), List.of());
        MeasuredCell mismatched = new MeasuredCell("b.Bench.call", "sample", 1, 2, Map.of(), sampled,
                Map.of(MeasuredCell.ALL_CALLS_MEAN, otherUnit), Map.of());
        assertThat(mismatched.callMeans()).as("a unit that differs is not mixed in").isDeepEqualTo(without.callMeans());
    }
}
