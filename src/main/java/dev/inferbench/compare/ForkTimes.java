package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.run.Cell;
import dev.inferbench.run.RunStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * How long a fork took, from the run folder itself: the loop runs one fork at a time and writes each fork's file
 * the moment it ends, so the gaps between consecutive fork files are the forks' wall times (JVM start, model load,
 * warmup and measurement together).
 */
public final class ForkTimes {
    private ForkTimes() {
    }

    /** The median gap between consecutive fork files in seconds; NaN with fewer than two forks. */
    public static double medianForkSeconds(Path dir) throws BenchException {
        RunStore store = RunStore.open(dir);
        List<Long> times = new ArrayList<>();
        for (Cell cell : store.plan().runnableCells()) {
            Path cellDir = store.cellDir(cell);
            if (!Files.isDirectory(cellDir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(cellDir)) {
                for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".ser")).toList()) {
                    times.add(Files.getLastModifiedTime(f).toMillis());
                }
            } catch (IOException e) {
                throw new BenchException("cannot read " + cellDir + ": " + e.getMessage(), e);
            }
        }
        if (times.size() < 2) {
            return Double.NaN;
        }
        long[] t = times.stream().mapToLong(Long::longValue).sorted().toArray();
        double[] gaps = new double[t.length - 1];
        for (int i = 1; i < t.length; i++) {
            gaps[i - 1] = (t[i] - t[i - 1]) / 1e3;
        }
        Arrays.sort(gaps);
        return gaps[gaps.length / 2];
    }
}
