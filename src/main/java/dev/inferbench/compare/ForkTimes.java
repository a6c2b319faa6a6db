package dev.inferbench.compare;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * How long a fork took, from the run folder itself: the loop runs one fork at a time and writes each fork's file
 * ({@code forks/<cell>/fork-N.json}) the moment it ends, so the gaps between consecutive fork files are the forks'
 * wall times (JVM start, model load, warmup and measurement together).
 */
public final class ForkTimes {
    private ForkTimes() {
    }

    /** The median gap between consecutive fork files in seconds; NaN with fewer than two forks or no run folder. */
    public static double medianForkSeconds(Path dir) throws BenchException {
        Path forks = dir.resolve("forks");
        if (!Files.isDirectory(forks)) {
            return Double.NaN;
        }
        long[] t;
        try (Stream<Path> files = Files.walk(forks, 2)) {
            t = files.filter(p -> p.getFileName().toString().matches("fork-\\d+\\.json")).mapToLong(p -> {
                try {
                    return Files.getLastModifiedTime(p).toMillis();
                } catch (IOException e) {
                    return Long.MIN_VALUE;
                }
            }).filter(v -> v != Long.MIN_VALUE).sorted().toArray();
        } catch (IOException e) {
            throw new BenchException("cannot read " + forks + ": " + e.getMessage(), e);
        }
        if (t.length < 2) {
            return Double.NaN;
        }
        double[] gaps = new double[t.length - 1];
        for (int i = 1; i < t.length; i++) {
            gaps[i - 1] = (t[i] - t[i - 1]) / 1e3;
        }
        Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }
}
