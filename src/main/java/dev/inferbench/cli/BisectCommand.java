package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.ExitCode;
import dev.inferbench.commits.Bisect;
import dev.inferbench.commits.GoodBuild;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code bisect GOOD BAD [cell and JMH args]}: which commit made it slower, with a comparison of commits as the oracle
 * ({@link Bisect}). Here the flags are read and the comparison chosen; what it says and its exit code are the
 * bisect's. Its lines keep the "bisect-perf" prefix of the script it replaces, so that what CI jobs grep for still
 * matches.
 */
final class BisectCommand implements Subcommand {
    private static final Options OPTIONS = new Options("bisect", "GOOD BAD [cell and JMH args]").passing()
            .row("GOOD BAD", "an older commit and a newer one (a branch, tag or sha)");
    private static final Options.Flag<Long> BUDGET = OPTIONS.value("--budget", "B", new Options.Type<>(
            "a duration, e.g. 10m", (t, f) -> wholeSeconds(t, f)), 600L, "the first step's budget (default 10m),"
                    + " once more at 2B if it could not tell; later steps stop at their precision or at 3B. Unless the"
                    + " arguments give --precision or --forks, the first step runs at --precision 2% and later ones at"
                    + " half their minimum effect; with --precision or --forks given, every step keeps them, at B and"
                    + " once more at 2B");
    private static final Options.Flag<Double> MIN_EFFECT = OPTIONS.value("--min-effect", "E", new Options.Type<>(
            "a percentage, e.g. 10%", (t, f) -> {
                Numbers.percent(t, f); // refuses what is not a percentage, in compare's words
                // the figure as written, so that half of "5%" is 2.5 %, not 2.5 % less a rounding error
                return Double.parseDouble(t.strip().replaceAll("%$", ""));
            }), Double.NaN, "the slowdown a step must show to mark a commit bad; by default the first comparison"
                    + " runs at compare-commits' 3 % and every later step at half the slowdown it measured (3 % to 50 %)")
            .passedOn();
    private static final Options.Flag<Path> OUT = OPTIONS.value("--out", "DIR", Options.FOLDER, null,
            "each step's comparison (DIR/step-N, DIR/step-N-again) and log; default results/bisect-GOOD-BAD-TIME");
    private static final Options.Flag<Boolean> OFFLINE = OPTIONS.toggle("--offline",
            "build with mvn -o (passed on to compare-commits)").passedOn();
    private static final Options.Flag<String> PRECISION = OPTIONS.value("--precision", "P", Options.TEXT, null,
            "every step's compare-commits --precision (see --budget)").passedOn();
    private static final Options.Flag<String> FORKS = OPTIONS.value("--forks", "N", Options.TEXT, null,
            "every step's compare-commits --forks (see --budget)").passedOn();

    static {
        OPTIONS.toggle("--fail-on-regression", "taken and left out: every step fails on a regression, that is the"
                + " oracle's answer");
        OPTIONS.row("any other", "passed on to every compare-commits, e.g. -p model=mlp-tiny -p batchSize=1");
    }

    private final Path from;
    private final CommitsWiring wiring;
    private final GoodBuild build;

    BisectCommand() {
        this(Path.of("").toAbsolutePath(), CommitsWiring.production(), GoodBuild.maven());
    }

    /** @param from a folder inside the checkout whose commits are bisected */
    BisectCommand(Path from, CommitsWiring wiring, GoodBuild build) {
        this.from = from;
        this.wiring = wiring;
        this.build = build;
    }

    @Override
    public String summary() {
        return "GOOD BAD [cell and JMH args] [--budget 10m] ...: the first commit that made a cell slower, git's bisect"
                + " with compare-commits as its oracle";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Which commit made it slower: git's bisect between GOOD and BAD, in a worktree of its own (the
                checkout is left as it is), each step a compare-commits of GOOD (built once) against the commit, with
                the same cell arguments: slower than GOOD marks it bad, not shown slower good, could not tell skips it.
                BAD is compared first, so a range whose end is not shown slower is not bisected at all. At the end it
                prints the first bad commit with its comparison's gated rows and its "where" tables.
                """, """
                Exit 0 the first bad commit found, 3 none to blame (BAD not shown slower, or only skipped commits
                left), 2 bad input or a side that does not build, 4 any other failure.
                """);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        try {
            Bisect.Request request = parse(args);
            return new Bisect(from, wiring.comparison(), build, out, err).run(request);
        } catch (BenchException e) {
            err.println("bisect-perf: " + e.getMessage());
            return ExitCode.BAD_INPUT;
        }
    }

    static Bisect.Request parse(List<String> args) throws BenchException {
        if (args.size() < 2) {
            throw new BenchException("expected: " + OPTIONS.synopsis());
        }
        Options.Parsed p = OPTIONS.parse(args.subList(2, args.size()));
        return new Bisect.Request(args.get(0), args.get(1), p.operands(), p.get(BUDGET), p.get(OUT), p.get(OFFLINE),
                p.has(PRECISION) || p.has(FORKS), p.get(MIN_EFFECT));
    }

    /** Whole seconds, as compare-commits' --budget takes them. */
    private static long wholeSeconds(String text, String flag) throws BenchException {
        Duration d = Numbers.duration(text, flag);
        if (d.toMillis() % 1000 != 0) {
            throw new BenchException(flag + " '" + text + "' is not whole seconds; expected e.g. 90s, 20m, 1h");
        }
        return d.toSeconds();
    }
}
