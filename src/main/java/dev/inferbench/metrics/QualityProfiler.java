package dev.inferbench.metrics;

import dev.inferbench.quality.CellQuality;

import java.util.Map;
import java.util.TreeMap;

/**
 * Output quality as JMH secondary metrics: {@code fidelity.top1} (%), {@code fidelity.maxabs}, {@code fidelity.cosine}
 * and, with labelled data, {@code accuracy.top1} / {@code accuracy.top5} (%). The trial setup computes them once,
 * outside the measurement, and leaves them in {@link CellQuality}; this profiler, in the same fork JVM, attaches them
 * to every iteration (the same value each time, so the fork's average is that value).
 */
public final class QualityProfiler extends FigureProfiler {

    public QualityProfiler() {
        super("fidelity to the fp32 reference and accuracy on labelled data, computed in the trial setup");
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        for (Map.Entry<String, CellQuality.Figure> e : new TreeMap<>(CellQuality.figures()).entrySet()) {
            out.kept(e.getKey(), e.getValue().value(), e.getValue().unit());
        }
    }
}
