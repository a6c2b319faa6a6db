package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.generate.GenerationFigures;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** compare's default gate holds a generation cell's TTFT and TPOT beside its request time, and nothing else of it. */
class GenerationGateTest {

    /** Five forks around the given figures, spread 1 %. */
    private static CellResults cell(double e2e, double ttft, double tpot, double tokens) {
        Map<String, MetricSeries> metrics = new LinkedHashMap<>();
        metrics.put("time", MetricSeries.mean("time", "ms/op", forks(e2e)));
        metrics.put(GenerationFigures.TTFT, MetricSeries.mean(GenerationFigures.TTFT, "ms", forks(ttft)));
        metrics.put(GenerationFigures.TPOT, MetricSeries.mean(GenerationFigures.TPOT, "ms", forks(tpot)));
        metrics.put(GenerationFigures.OUTPUT_TOKENS, MetricSeries.mean(GenerationFigures.OUTPUT_TOKENS, "tokens/s",
                forks(tokens)));
        return new CellResults(new CellKey("b.GenerationBenchmark.request", Map.of("batchSize", "1")), "sample",
                metrics);
    }

    private static double[][] forks(double v) {
        double[][] f = new double[5][];
        for (int i = 0; i < 5; i++) {
            double x = v * (1 + 0.01 * (i - 2));
            f[i] = new double[]{x, x};
        }
        return f;
    }

    @Test
    void aSlowerTtftFailsTheGateWhileTheRequestTimeHoldsStill() throws BenchException {
        // the prefill 30 % slower, the decode steps a little faster: the end-to-end time barely moves
        Comparer.Report r = Comparer.compare(List.of(cell(1000, 150, 13.5, 64)), List.of(cell(1002, 195, 12.8, 63.9)),
                0.03, 0.95);
        assertThat(r.family()).isEqualTo(3);
        assertThat(r.regressions()).extracting(Comparison::metric).containsExactly(GenerationFigures.TTFT);
        assertThat(r.rows().stream().filter(c -> c.metric().equals(GenerationFigures.TTFT)).findFirst().orElseThrow()
                .verdictWord()).isEqualTo("slower");
        assertThat(r.anyWorse()).isTrue();
    }

    @Test
    void aSlowerTpotFailsTheGate() throws BenchException {
        Comparer.Report r = Comparer.compare(List.of(cell(1000, 150, 13.5, 64)), List.of(cell(1100, 150, 15, 58)),
                0.03, 0.95);
        assertThat(r.regressions()).extracting(Comparison::metric).contains(GenerationFigures.TPOT)
                .doesNotContain(GenerationFigures.OUTPUT_TOKENS); // worse too, but reported, not gated
    }
}
