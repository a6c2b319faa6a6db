package dev.inferbench.profile;

import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency of each cell in two runs side by side (the mean and p50 of JMH's primary metric, run B over run A).
 * With an unprofiled run A and a profiled run B of the same cells it is the profiler's overhead: how much the
 * profiler perturbs what it shows.
 */
public final class LatencyRatio {
    private LatencyRatio() {
    }

    /** One line per cell in both runs' jmh-result.json; empty when either run has none. */
    public static List<String> lines(Path runA, Path runB) throws BenchException {
        Path fileA = RunLayout.of(runA).result();
        Path fileB = RunLayout.of(runB).result();
        if (!Files.isRegularFile(fileA) || !Files.isRegularFile(fileB)) {
            return List.of();
        }
        Map<String, MeasuredCell> a = new LinkedHashMap<>();
        JmhJson.read(fileA).forEach(c -> a.put(c.key(), c));
        List<String> lines = new ArrayList<>();
        for (MeasuredCell b : JmhJson.read(fileB)) {
            MeasuredCell before = a.get(b.key());
            if (before == null) {
                continue;
            }
            lines.add(String.format(Locale.ROOT, "latency %s %s: mean %.3f -> %.3f %s (x%.3f), p50 %.3f -> %.3f (x%.3f)",
                    b.shortName(), b.params(), before.primary().score(), b.primary().score(), b.primary().unit(),
                    b.primary().score() / before.primary().score(), before.primary().percentile(50.0),
                    b.primary().percentile(50.0), b.primary().percentile(50.0) / before.primary().percentile(50.0)));
        }
        return lines;
    }
}
