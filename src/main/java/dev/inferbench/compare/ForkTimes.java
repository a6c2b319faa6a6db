package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;

import dev.inferbench.stats.Percentiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.inferbench.cell.Cell;
import dev.inferbench.results.jmh.MeasuredCell;

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
            seconds = files.filter(p -> p.getFileName().toString().endsWith(RunLayout.FORK_TIME_SUFFIX) && landed(p))
                    .map(ForkTime::read).flatMap(Optional::stream).mapToDouble(ForkTime::seconds).toArray();
        } catch (IOException e) {
            throw new BenchException("cannot read " + forks + ": " + e.getMessage(), e);
        }
        return Percentiles.median(seconds);
    }

    /** A fork's landed marker, of this build or (present, never read) of an older one's Java-serialized format. */
    private static final Pattern LANDED = Pattern.compile(RunLayout.forkName(0).replace("0", "(\\d+)") + "(?:"
            + Pattern.quote(RunLayout.FORK_RESULT_SUFFIX) + "|" + Pattern.quote(RunLayout.LEGACY_FORK_RESULT_SUFFIX) + ")");

    /** Whether the fork whose time file is {@code time} landed. */
    private static boolean landed(Path time) {
        String fork = time.getFileName().toString().replace(RunLayout.FORK_TIME_SUFFIX, "");
        return Files.exists(time.resolveSibling(fork + RunLayout.FORK_RESULT_SUFFIX))
                || Files.exists(time.resolveSibling(fork + RunLayout.LEGACY_FORK_RESULT_SUFFIX));
    }

    /**
     * When each landed fork of {@code cell} ran, by fork number: the order in which the run merged them into its
     * result. Empty when the folder does not say for every landed fork (a bare JMH file, a run of an older build), or
     * when the count differs from the cell's forks in the result (a fork landed after the result was read).
     *
     * @param disturbed per fork in the same order, whether the machine was disturbed during it (may be shorter: none)
     */
    public static List<ForkStamp> stamps(Path dir, MeasuredCell cell, boolean[] disturbed) throws BenchException {
        RunLayout layout = RunLayout.of(dir);
        String id = new Cell(cell.benchmark(), cell.mode(), cell.params()).id();
        Path forks = layout.cellForks(id);
        if (!Files.isDirectory(forks)) {
            return List.of();
        }
        List<Integer> numbers = new ArrayList<>();
        try (Stream<Path> files = Files.list(forks)) {
            files.forEach(f -> {
                Matcher m = LANDED.matcher(f.getFileName().toString());
                if (m.matches()) {
                    numbers.add(Integer.parseInt(m.group(1)));
                }
            });
        } catch (IOException e) {
            throw new BenchException("cannot read " + forks + ": " + e.getMessage(), e);
        }
        numbers.sort(null);
        List<ForkStamp> out = new ArrayList<>();
        for (int n : numbers) {
            Optional<ForkTime> t = ForkTime.read(layout.forkTime(id, n));
            if (t.isEmpty()) {
                return List.of();
            }
            int f = out.size();
            out.add(new ForkStamp(n, t.get().start(), t.get().end(), f < disturbed.length && disturbed[f]));
        }
        return out.size() == cell.primary().forkCount() ? out : List.of();
    }
}
