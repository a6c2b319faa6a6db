package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * How long a fork took (JVM start, model load, warmup and measurement together), from the wall time the run loop
 * keeps beside each fork's result ({@code forks/<cell>/fork-N.time.json}); merged shards keep it too.
 */
public final class ForkTimes {
    private ForkTimes() {
    }

    /** The median wall time of the run's forks in seconds; NaN when no fork has one (a run of an older build). */
    public static double medianForkSeconds(Path dir) throws BenchException {
        Path forks = RunLayout.of(dir).forks();
        if (!Files.isDirectory(forks)) {
            return Double.NaN;
        }
        double[] seconds;
        try (Stream<Path> files = Files.walk(forks, 2)) {
            // a time beside a fork that never landed (killed between its files) is not a fork's time
            seconds = files.filter(p -> p.getFileName().toString().endsWith(RunLayout.FORK_TIME_SUFFIX) && Files.exists(
                            p.resolveSibling(p.getFileName().toString().replace(RunLayout.FORK_TIME_SUFFIX, RunLayout.FORK_RESULT_SUFFIX))))
                    .map(ForkTime::read).flatMap(Optional::stream).mapToDouble(ForkTime::seconds).sorted().toArray();
        } catch (IOException e) {
            throw new BenchException("cannot read " + forks + ": " + e.getMessage(), e);
        }
        return seconds.length == 0 ? Double.NaN : seconds[seconds.length / 2];
    }
}
