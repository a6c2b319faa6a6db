package dev.inferbench.compare;

import dev.inferbench.stats.Percentiles;
import dev.inferbench.BenchException;
import dev.inferbench.results.MachineState;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The machine around each fork of an interleaved comparison, as compare-commits took it outside the measured
 * JVMs ({@value #FILE} in the folder that holds the two run folders): per fork, its wall-clock window, other processes'
 * CPU over it (the machine's busy time from /proc less the script's and the two launchers' process trees) and the
 * script's own canary (a fixed shell loop) timed before and after the pair. Neither side's build runs any of it, so a
 * pair it flags was disturbed by the machine whichever build ran; the rule is the one of {@link MachineState}, against
 * the medians over the whole comparison.
 */
public final class MachineRecord {
    public static final String FILE = "machine.tsv";
    private static final String HEADER = "pair\tside\tstart_us\tend_us\tothers_cores\tcanary_before_ms\tcanary_after_ms";

    /** One fork's line: its window in epoch microseconds, others in cores (NaN where /proc was missing), canaries ms. */
    record Fork(int pair, String side, long startMicros, long endMicros, double others, double canaryBefore,
                double canaryAfter) {
        boolean holds(Instant at) {
            long us = at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
            return us >= startMicros && us <= endMicros;
        }
    }

    private final List<Fork> forks;
    private final double canaryMedian;
    private final double othersMedian;

    MachineRecord(List<Fork> forks) {
        this.forks = List.copyOf(forks);
        // each pair's canary is read once before it and once after it: the readings are those, each counted once
        TreeMap<Integer, Double> readings = new TreeMap<>();
        for (Fork f : forks) {
            readings.put(2 * (f.pair() - 1), f.canaryBefore());
            readings.put(2 * f.pair(), f.canaryAfter());
        }
        this.canaryMedian = Percentiles.median(readings.values().stream().mapToDouble(Double::doubleValue).toArray());
        this.othersMedian = Percentiles.median(forks.stream().mapToDouble(Fork::others)
                .filter(d -> !Double.isNaN(d)).toArray());
    }

    /** The record in the folder above {@code run} (a side of a compare-commits comparison); empty where there is none. */
    public static Optional<MachineRecord> beside(Path run) throws BenchException {
        Path parent = run.toAbsolutePath().getParent();
        Path file = parent == null ? null : parent.resolve(FILE);
        if (file == null || !Files.isDirectory(run) || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(read(file));
    }

    static MachineRecord read(Path file) throws BenchException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new BenchException(file + " is not a machine record; expected its first line to be '"
                    + HEADER.replace("\t", " ") + "' (tab-separated), found '"
                    + (lines.isEmpty() ? "" : lines.get(0).replace("\t", " ")) + "'");
        }
        List<Fork> forks = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] f = lines.get(i).split("\t", -1);
            try {
                if (f.length != 7) {
                    throw new NumberFormatException(f.length + " fields");
                }
                forks.add(new Fork(Integer.parseInt(f[0]), f[1], Long.parseLong(f[2]), Long.parseLong(f[3]),
                        f[4].equals("-") ? Double.NaN : Double.parseDouble(f[4]), Double.parseDouble(f[5]),
                        Double.parseDouble(f[6])));
            } catch (NumberFormatException e) {
                throw new BenchException(file + " line " + (i + 1) + " is not a fork's line ('"
                        + lines.get(i).replace("\t", " ") + "'); expected 7 tab-separated fields: " + HEADER.replace("\t", " "), e);
            }
        }
        return new MachineRecord(forks);
    }

    /**
     * {@code stamps} with each fork's flag from this record: disturbed when the line whose window holds the fork's
     * middle says so by {@link MachineState#disturbed} (its pair's canary, its others); a fork the
     * record has no line for is not flagged. The pair's canary is the faster of the readings before and after it, so
     * it is slow when a slow phase lasted the whole pair: a reading between pairs cannot see inside a fork, and a lone
     * slow one (in real comparisons, at pair boundaries while the forks' own canaries and /proc stayed quiet) is the
     * boundary's. Bursts inside a fork are what other processes' CPU over the fork's window catches.
     */
    public List<ForkStamp> flag(List<ForkStamp> stamps) {
        List<ForkStamp> out = new ArrayList<>(stamps.size());
        for (ForkStamp s : stamps) {
            Instant middle = s.start().plus(java.time.Duration.between(s.start(), s.end()).dividedBy(2));
            boolean disturbed = forks.stream().filter(f -> f.holds(middle)).findFirst()
                    .map(f -> MachineState.disturbed(Math.min(f.canaryBefore(), f.canaryAfter()), f.others(),
                            canaryMedian, othersMedian))
                    .orElse(false);
            out.add(new ForkStamp(s.fork(), s.start(), s.end(), disturbed));
        }
        return out;
    }
}
