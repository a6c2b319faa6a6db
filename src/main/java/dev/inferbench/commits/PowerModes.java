package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.RunReader;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.Power;
import dev.inferbench.stats.Verdict;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What a comparison of two builds can see on this machine, mode by mode, measured side by side: ROUNDS rounds of
 * comparisons of the checkout against itself (A/A, or a slowdown planted on the head side), one per mode per round,
 * the modes taking turns so that the machine's drift over the session hits every mode alike. Each comparison runs for
 * MINUTES; from its forks come the spread of a pair's log ratio (paired) and, for interleaved forks, of the two sides
 * taken apart (Welch, as {@code compare --unpaired} reads the same forks), and the wall time a pair took; from those,
 * per mode, the smallest slowdown a comparison of BUDGET minutes finds with 95 % power at the gate's 99 %
 * ({@link Power#visibleAt}), the median over the rounds, beside the verdicts and exit codes the comparisons gave.
 */
public final class PowerModes {
    /** How the two sides' forks run, and the compare-commits flag that asks for it. */
    public enum Mode {
        INTERLEAVED("interleaved", List.of()), PIN("pin", List.of("--pin")), DUET("duet", List.of("--duet")),
        TURNS("turns", List.of("--turns"));

        final String label;
        final List<String> flags;

        Mode(String label, List<String> flags) {
            this.label = label;
            this.flags = flags;
        }

        public String label() {
            return label;
        }
    }

    /** @param out where each comparison's folder and log go, and comparisons.tsv */
    public record Request(PowerLedger.Cell cell, List<Mode> modes, int rounds, int minutes, int budgetMinutes,
                          int slowdown, Path out) {
    }

    /** One comparison read one way: its interval over {@code pairs} units and what a budget's worth would see. */
    record Reading(String label, int round, int pairs, double pairSeconds, int pairsThen, Interval ratio,
                   String verdict, int exit, Power.Visible visible) {
    }

    private final CommitComparison comparison;
    private final PrintStream out;
    private final LongSupplier nanos;

    public PowerModes(CommitComparison comparison, PrintStream out) {
        this(comparison, out, System::nanoTime);
    }

    PowerModes(CommitComparison comparison, PrintStream out, LongSupplier nanos) {
        this.comparison = comparison;
        this.out = out;
        this.nanos = nanos;
    }

    public int run(Request r) throws BenchException, IOException {
        Files.createDirectories(r.out());
        StringBuilder tsv = new StringBuilder("mode\tround\texit\tseconds\tfolder\n");
        out.println("[power-modes] " + r.rounds() + " rounds of " + String.join(", ", r.modes().stream()
                .map(Mode::label).toList()) + " (" + r.minutes() + " min each) of " + r.cell().model()
                + (r.slowdown() > 0 ? "; head slowed by " + r.slowdown() + " %" : "") + "; in " + r.out());
        List<Reading> readings = new ArrayList<>();
        for (int round = 1; round <= r.rounds(); round++) {
            for (Mode m : r.modes()) {
                Path folder = r.out().resolve(m.label + "-" + round);
                List<String> args = new ArrayList<>(List.of(".", "."));
                args.addAll(r.cell().jmhArgs(false));
                args.addAll(m.flags);
                if (r.slowdown() > 0) {
                    args.addAll(List.of("--head-args", "-jvmArgsAppend -Dinferbench.slowdown=" + r.slowdown()));
                }
                args.addAll(List.of("--forks", "500", "--budget", r.minutes() + "m", "--fail-on-regression", "--out",
                        folder.toString()));
                long t0 = nanos.getAsLong();
                int code = compare(args, r.out().resolve(m.label + "-" + round + ".log"));
                long seconds = (nanos.getAsLong() - t0) / 1_000_000_000L;
                String line = m.label + "\t" + round + "\t" + code + "\t" + seconds + "\t" + folder;
                out.println(line);
                tsv.append(line).append('\n');
                AtomicFile.write(r.out().resolve("comparisons.tsv"), tsv.toString().getBytes(StandardCharsets.UTF_8));
                readings.addAll(read(m, round, folder, code, seconds, r.budgetMinutes() * 60));
            }
        }
        out.println();
        table(readings, r.budgetMinutes()).forEach(out::println);
        return ExitCode.OK;
    }

    private int compare(List<String> args, Path log) throws IOException {
        return comparison.runInto(args, log);
    }

    /** The comparison in {@code folder}, paired and (interleaved) unpaired; none where it left no interval. */
    private List<Reading> read(Mode m, int round, Path folder, int code, long seconds, int budgetSeconds) {
        Optional<Comparison> paired;
        Optional<Comparison> unpaired;
        try {
            Path base = folder.resolve("base");
            Path head = folder.resolve("head");
            List<MeasuredCell> b = RunReader.readCells(base);
            List<MeasuredCell> h = RunReader.readCells(head);
            paired = gated(Comparer.compare(RunReader.of(b, base), RunReader.of(h, head), Verdict.DEFAULT_MIN_EFFECT,
                    Verdict.CONFIDENCE));
            unpaired = gated(Comparer.compare(RunReader.of(b), RunReader.of(h), Verdict.DEFAULT_MIN_EFFECT,
                    Verdict.CONFIDENCE));
        } catch (BenchException | RuntimeException e) {
            paired = Optional.empty();
            unpaired = Optional.empty();
        }
        if (paired.isEmpty() || unpaired.isEmpty() || !paired.get().ratio().known()) {
            out.println(m.label + " round " + round + ": no interval (exit " + code + ")");
            return List.of();
        }
        List<Reading> readings = readings(m, round, paired.get(), unpaired.get(), code, seconds, budgetSeconds);
        readings.forEach(x -> out.println(describe(x, budgetSeconds)));
        return readings;
    }

    private static Optional<Comparison> gated(Comparer.Report report) {
        return report.rows().stream().filter(Comparison::gated).findFirst();
    }

    /**
     * The readings of one comparison: paired over its pairs, and for interleaved forks also Welch's over its forks; a
     * comparison of {@code budgetSeconds} would run as many pairs as fit at this one's seconds a pair (2 at least).
     */
    static List<Reading> readings(Mode m, int round, Comparison paired, Comparison unpaired, int code, long seconds,
                                  int budgetSeconds) {
        int n = paired.paired() ? paired.pairs().count() : unpaired.ratio().forks();
        double pairSeconds = (double) seconds / n;
        int then = (int) Math.max(2, Math.floor(budgetSeconds / pairSeconds));
        List<Reading> readings = new ArrayList<>();
        if (m == Mode.INTERLEAVED) {
            readings.add(new Reading(m.label + ", unpaired (Welch)", round, n, pairSeconds, then, unpaired.ratio(),
                    unpaired.verdictWord(), code, Power.visibleAt(unpaired.ratio(), 2 * n - 2, n, 2 * then - 2, then)));
        }
        readings.add(new Reading(m.label + ", " + (paired.paired() ? "paired" : "unpaired?"), round, n, pairSeconds,
                then, paired.ratio(), paired.verdictWord(), code,
                Power.visibleAt(paired.ratio(), n - 1, n, then - 1, then)));
        return readings;
    }

    private static String describe(Reading x, int budgetSeconds) {
        Interval r = x.ratio();
        return x.label() + " round " + x.round() + ": " + x.pairs() + " pairs (" + FixedPoint.of(x.pairSeconds(), 1)
                + " s a pair); ratio " + FixedPoint.of(r.estimate(), 3) + " [" + FixedPoint.of(r.lower(), 3) + ", "
                + FixedPoint.of(r.upper(), 3) + "] " + x.verdict() + " (exit " + x.exit() + "); sd of log ratio "
                + FixedPoint.of(x.visible().sd(), 3) + "; in " + budgetSeconds / 60 + " min: " + x.pairsThen()
                + " pairs, sees " + FixedPoint.of(100 * x.visible().change(), 1) + " %";
    }

    /** Per label, the medians over its rounds, as a Markdown table. */
    static List<String> table(List<Reading> readings, int budgetMinutes) {
        Map<String, List<Reading>> byLabel = new LinkedHashMap<>();
        readings.forEach(x -> byLabel.computeIfAbsent(x.label(), k -> new ArrayList<>()).add(x));
        List<String> lines = new ArrayList<>(List.of("| mode | comparisons | pairs each | s a pair | sd of a pair's log"
                + " ratio | sees in " + budgetMinutes + " min (95 % power, median) |", "|---|---|---|---|---|---|"));
        byLabel.forEach((label, xs) -> lines.add("| " + label + " | " + xs.size() + " | "
                + FixedPoint.of(median(xs, x -> x.pairs()), 0) + " | " + FixedPoint.of(median(xs, Reading::pairSeconds), 1)
                + " | " + FixedPoint.of(median(xs, x -> x.visible().sd()), 3) + " | "
                + FixedPoint.of(100 * median(xs, x -> x.visible().change()), 1) + " % |"));
        return lines;
    }

    private static double median(List<Reading> xs, java.util.function.ToDoubleFunction<Reading> f) {
        return Percentiles.median(xs.stream().mapToDouble(f).toArray());
    }
}
