package dev.inferbench.generate;

import dev.inferbench.metrics.FigureProfiler;
import dev.inferbench.metrics.Figures;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import java.util.List;
import java.util.Map;

/**
 * A generation cell's figures ({@link GenerationFigures}: TTFT, TPOT, ITL percentiles, end-to-end latency, output and
 * total tokens/s, KV-cache bytes per token, prefill and decode shares) as secondary metrics of each measured
 * iteration, from the requests GenerationBenchmark recorded in it; forks are the unit of their intervals like every
 * other figure. A load step (GenerationLoadBenchmark) records only its requests' lengths here, its times going through
 * the serving figures. Cells that are not generation cells get nothing.
 */
public final class GenerationProfiler extends FigureProfiler {

    public GenerationProfiler() {
        super("generation: time to first token, time per output token, inter-token latency, tokens/s, KV-cache bytes");
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        GenerationRecord.take(); // requests of a warmup iteration, or of the setup's check, are not this iteration's
        GenerationRecord.takeLengths();
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        List<RequestTimes> requests = GenerationRecord.take();
        int[][] lengths = GenerationRecord.takeLengths();
        if (!it.measured()) {
            return;
        }
        Map<String, Double> figures = !requests.isEmpty() ? GenerationFigures.of(requests)
                : lengths != null ? GenerationFigures.lengths(lengths[0], lengths[1]) : Map.of();
        figures.forEach((name, value) -> out.kept(name, value, GenerationFigures.UNITS.get(name)));
    }
}
