package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.commits.CommitsFlow;
import dev.inferbench.commits.CommitsRequest;
import dev.inferbench.commits.Tools;
import dev.inferbench.commits.Verdicts;
import dev.inferbench.compare.Comparer;
import dev.inferbench.flow.CompareFlow;
import dev.inferbench.stats.StoppingRule;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code compare-commits BASE HEAD [JMH args]}: here the flags are read; {@link CommitsFlow} builds both sides, runs
 * the pairs and compares, and its ending is the exit code.
 */
final class CompareCommitsCommand implements Subcommand {
    private static final String JAR = "target/benchmarks.jar";
    private static final Options OPTIONS = new Options("compare-commits", "BASE HEAD [JMH args]").passing()
            .row("BASE HEAD", "commits (branch, tag, sha), . (this checkout as built: its " + JAR + ") or a folder"
                    + " holding a built " + JAR + ", used as it is");
    private static final Options.Flag<Double> PRECISION = OPTIONS.value("--precision", "P", Options.PERCENT, Double.NaN,
            "add pairs until every gated row has the pairs its interval needs to be narrower than P, or the budget is"
                    + " spent: the first " + StoppingRule.PILOT_PAIRS + " pairs (the pilot) fix how many pairs run from"
                    + " their spread alone (Stein's two stages)");
    private static final Options.Flag<String> BUDGET = OPTIONS.value("--budget", "D", new Options.Type<>(
            Options.DURATION.expected(), (t, f) -> {
                Numbers.duration(t, f);
                return t;
            }), null, "stop before a pair that would end past D (e.g. 90s, 20m, 1h)");
    private static final Options.Flag<Integer> FORKS = OPTIONS.value("--forks", "N",
            Options.whole(3, "forks per side, e.g. 10"), null,
            "forks per side without --precision (default 10); the most per side with it (default 60)");
    private static final Options.Flag<Double> MIN_EFFECT = OPTIONS.value("--min-effect", "P", Options.PERCENT,
            Verdict.DEFAULT_MIN_EFFECT, "the smallest change that counts (default "
                    + CompareFlow.percent(Verdict.DEFAULT_MIN_EFFECT) + " %)");
    private static final Options.Flag<Set<String>> GATE = OPTIONS.value("--gate", "M,...",
            CompareCommand.GATE_METRICS, Comparer.PRIMARY_ONLY, CompareCommand.GATE_HELP + "; the stop rule reads"
                    + " the same rows");
    private static final Options.Flag<Boolean> FAIL = OPTIONS.toggle("--fail-on-regression",
            "exit 1 on a regression, 3 when a gated row could not tell");
    private static final Options.Flag<Path> OUT = OPTIONS.value("--out", "DIR", Options.FOLDER, null,
            "where the two run folders go (default results/compare-BASE-HEAD-TIME)");
    private static final Options.Flag<List<String>> HEAD_ARGS = OPTIONS.value("--head-args", "A", Options.WORDS,
            List.of(), "extra JMH args for the head side only, e.g. the slowdown aid: --head-args \"-jvmArgsAppend"
                    + " -Dinferbench.slowdown=10\" (the same commit on both sides without it is an A/A comparison)");
    private static final Options.Flag<String> PIN = OPTIONS.value("--pin", "CPUS", Options.TEXT, null,
            "every fork of both sides on the same CPUs (a taskset list, default 0); threads=0 becomes their number,"
                    + " more threads than CPUs is refused")
            .optional(v -> !v.isEmpty() && Character.isDigit(v.charAt(0)), "0");
    private static final Options.Flag<String> KEEP_BUSY = OPTIONS.value("--keep-busy", "CPUS", Options.TEXT, null,
            "keep these CPUs busy, one spinning thread each, for the whole comparison; with --pin, on other CPUs: on a"
                    + " VM whose idle vCPUs make a busy one run by fits at two speeds (docs/statistics.md,"
                    + " \"Microsecond cells\")");
    private static final Options.Flag<Boolean> DUET = OPTIONS.toggle("--duet", "both forks of a pair at once, each on"
            + " its half of the CPUs, swapping halves every pair, measured iterations started together (docs/duet.md)");
    private static final Options.Flag<Boolean> TURNS = OPTIONS.toggle("--turns", "both forks of a pair at once, taking"
            + " turns iteration by iteration, the lead alternating A B B A (docs/duet.md)");
    private static final Options.Flag<Integer> SEED = OPTIONS.value("--seed", "N", Options.whole(0, "a whole number"),
            null, "the seed of the pair-order coin (default from the clock)");
    private static final Options.Flag<Boolean> OFFLINE = OPTIONS.toggle("--offline", "build each side with mvn -o; by"
            + " default each side is built as the README builds it, and a side whose build arguments name what the local"
            + " repository lacks is built online, at build time, never by a run");
    private static final Options.Flag<Boolean> NO_WHERE = OPTIONS.toggle("--no-where",
            "no operator passes (no \"where\" tables)");
    private static final Options.Flag<Integer> WHERE_EVERY = OPTIONS.value("--where-every", "K",
            Options.whole(1, "a number of pairs, e.g. 2"), 0, "an operator pass before every K-th pair only (default:"
                    + " every pair, unless the first pair's passes took a second or more and over 15 % of its time)");
    private static final Options.Flag<List<String>> BASE_BUILD = OPTIONS.value("--base-build", "A", Options.WORDS,
            List.of(), "extra Maven arguments for building the base side only, e.g. an engine upgrade: --base-build"
                    + " \"-Donnxruntime.version=1.22.0\"");
    private static final Options.Flag<List<String>> HEAD_BUILD = OPTIONS.value("--head-build", "A", Options.WORDS,
            List.of(), "the same for the head side only");

    private final Tools tools;
    private final Verdicts verdicts;

    CompareCommitsCommand() {
        this(Tools.ofThisProcess(), Verdicts.COMPARE);
    }

    CompareCommitsCommand(Tools tools, Verdicts verdicts) {
        this.tools = tools;
        this.verdicts = verdicts;
    }

    @Override
    public String summary() {
        return "BASE HEAD [JMH args] [--precision P] [--budget D] ...: two commits built and run fork pair by fork"
                + " pair, then compared (a CI gate)";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                An interleaved A/B benchmark of two commits: each commit's jar is built in its own git worktree, then
                forks run A, B, A, B ... (one fork per step of a paced launcher per side, so drift of the machine hits
                both builds alike), then compare, which pairs fork N of each side and builds the ratio's interval from
                the per-pair ratios. Each pair runs base or head first by a seeded coin (OUT/pair-order.txt). Around
                each fork other processes' CPU is read from /proc, and between pairs a fixed loop of this JVM is timed
                (OUT/machine.tsv): compare leaves pairs run while the machine was disturbed out. Where each pair's
                time went is OUT/pair-time.tsv. Before each pair's forks each side's launcher runs one operator pass
                of its ort cells in its own JVM, and compare prints, for each gated row that changed or could not
                tell, the operators and frame groups that changed (docs/statistics.md, "Where").
                """, """
                INFERBENCH_JAVA_OPTS is passed to every java command (e.g. -Djmh.ignoreLock=true).
                Exit 0 pass, 1 regression (with --fail-on-regression), 3 could not tell, 2 bad input or a commit that
                does not build, 4 any other failure (a fork or launcher of either side that failed): never 0 or 1.
                """);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        return new CommitsFlow(tools, verdicts, out, err).run(parse(args));
    }

    static CommitsRequest parse(List<String> args) throws BenchException {
        if (args.size() < 2 || args.get(0).startsWith("-") || args.get(1).startsWith("-")) {
            throw new BenchException("compare-commits needs two sides; expected: " + OPTIONS.synopsis());
        }
        Options.Parsed p = OPTIONS.parse(args.subList(2, args.size()));
        if (p.get(DUET) && p.get(TURNS)) {
            throw new BenchException("--duet and --turns are two ways to run a pair; give one");
        }
        double precision = p.get(PRECISION);
        String budget = p.get(BUDGET);
        long budgetSeconds = budget == null ? 0 : Numbers.duration(budget, "--budget").toSeconds();
        String forksFrom = p.has(FORKS) ? "--forks " + p.get(FORKS) : "the default without --forks";
        int n = p.has(FORKS) ? p.get(FORKS) : Double.isNaN(precision) ? 10 : 60;
        long seed = p.has(SEED) ? p.get(SEED) : System.currentTimeMillis() / 1000 % 32768;
        return new CommitsRequest(args.get(0), args.get(1), p.operands(), precision, budgetSeconds, budget, n,
                forksFrom, p.get(MIN_EFFECT), p.get(FAIL), p.get(OUT), p.get(HEAD_ARGS), p.get(PIN), p.get(DUET),
                p.get(TURNS), seed, p.get(OFFLINE), !p.get(NO_WHERE), p.get(WHERE_EVERY), p.get(BASE_BUILD),
                p.get(HEAD_BUILD), p.get(GATE), p.get(KEEP_BUSY));
    }
}
