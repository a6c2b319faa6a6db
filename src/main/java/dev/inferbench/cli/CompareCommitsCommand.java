package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.commits.CommitsFlow;
import dev.inferbench.commits.CommitsRequest;
import dev.inferbench.commits.Tools;
import dev.inferbench.commits.Verdicts;
import dev.inferbench.stats.Verdict;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code compare-commits BASE HEAD [JMH args] [--precision P] [--budget D] ...}: here the flags are parsed;
 * {@link CommitsFlow} builds both sides, runs the pairs and compares, and its ending is the exit code.
 */
final class CompareCommitsCommand implements Subcommand {
    private static final String USAGE = "compare-commits BASE HEAD [JMH args] [--precision P] [--budget D] [--forks N]"
            + " [--min-effect P] [--fail-on-regression] [--out DIR] [--head-args A] [--pin [CPUS]] [--duet | --turns]"
            + " [--seed N] [--offline] [--no-where] [--where-every K] [--base-build A] [--head-build A]";

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
        return USAGE_PREFIX + """
                compare-commits BASE HEAD [JMH args] [--precision P] [--budget D] [--forks N]
                        [--min-effect P] [--fail-on-regression] [--out DIR] [--head-args A]
                        [--pin [CPUS]] [--duet | --turns] [--seed N] [--offline]
                        [--no-where] [--where-every K] [--base-build A] [--head-build A]
                An interleaved A/B benchmark of two commits: each commit's jar is built in its own git worktree, then
                forks run A, B, A, B ... (one fork per step of a paced launcher per side, so drift of the machine hits
                both builds alike), then compare, which pairs fork N of each side and builds the ratio's interval from
                the per-pair ratios. Each pair runs base or head first by a seeded coin (OUT/pair-order.txt). Around
                each fork other processes' CPU is read from /proc, and between pairs a fixed loop of this JVM is timed
                (OUT/machine.tsv): compare leaves pairs run while the machine was disturbed out. Where each pair's
                time went is OUT/pair-time.tsv. Before each pair's forks each side's launcher runs one operator pass
                of its ort cells in its own JVM, and compare prints, for each gated row that changed or could not
                tell, the operators and frame groups that changed (docs/statistics.md, "Where").
                  BASE HEAD             commits (branch, tag, sha), . (this checkout as built: its %s) or a
                                        folder holding a built %s, used as it is
                  --precision P         add pairs until every gated row has the pairs its interval needs to be
                                        narrower than P, or the budget is spent: the first %d pairs (the pilot) fix
                                        how many pairs run from their spread alone (Stein's two stages)
                  --budget D            stop before a pair that would end past D (e.g. 90s, 20m, 1h)
                  --forks N             forks per side without --precision (default 10); the most per side with it
                                        (default 60)
                  --min-effect P        the smallest change that counts (default %s %%)
                  --fail-on-regression  exit 1 on a regression, 3 when a gated row could not tell
                  --out DIR             where the two run folders go (default results/compare-BASE-HEAD-TIME)
                  --head-args A         extra JMH args for the head side only, e.g. the slowdown aid:
                                        --head-args "-jvmArgsAppend -Dinferbench.slowdown=10" (the same commit on
                                        both sides without it is an A/A comparison)
                  --pin [CPUS]          every fork of both sides on the same CPUs (a taskset list, default 0);
                                        threads=0 becomes their number, more threads than CPUs is refused
                  --duet                both forks of a pair at once, each on its half of the CPUs, swapping halves
                                        every pair, measured iterations started together (docs/duet.md)
                  --turns               both forks of a pair at once, taking turns iteration by iteration, the lead
                                        alternating A B B A (docs/duet.md)
                  --seed N              the seed of the pair-order coin (default from the clock)
                  --offline             build each side with mvn -o; by default each side is built as the README
                                        builds it, and a side whose build arguments name what the local repository
                                        lacks is built online, at build time, never by a run
                  --no-where            no operator passes (no "where" tables)
                  --where-every K       an operator pass before every K-th pair only (default: every pair, unless
                                        the first pair's passes took a second or more and over 15 %% of its time)
                  --base-build A, --head-build A
                                        extra Maven arguments for building that side only, e.g. an engine upgrade:
                                        --base-build "-Donnxruntime.version=1.22.0"
                INFERBENCH_JAVA_OPTS is passed to every java command (e.g. -Djmh.ignoreLock=true).
                Exit 0 pass, 1 regression (with --fail-on-regression), 3 could not tell, 2 bad input or a commit that
                does not build, 4 any other failure (a fork or launcher of either side that failed): never 0 or 1.
                """.formatted("target/benchmarks.jar", "target/benchmarks.jar", dev.inferbench.stats.StoppingRule.PILOT_PAIRS,
                dev.inferbench.flow.CompareFlow.percent(Verdict.DEFAULT_MIN_EFFECT));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        return new CommitsFlow(tools, verdicts, out, err).run(parse(args));
    }

    static CommitsRequest parse(List<String> args) throws BenchException {
        if (args.size() < 2 || args.get(0).startsWith("-") || args.get(1).startsWith("-")) {
            throw new BenchException("compare-commits needs two sides; expected: " + USAGE);
        }
        double precision = Double.NaN;
        String budget = null;
        long budgetSeconds = 0;
        Integer forks = null;
        double minEffect = Verdict.DEFAULT_MIN_EFFECT;
        boolean fail = false;
        Path out = null;
        List<String> headArgs = List.of();
        String pin = null;
        boolean duet = false;
        boolean turns = false;
        Long seed = null;
        boolean offline = false;
        boolean where = true;
        int whereEvery = 0;
        List<String> baseBuild = List.of();
        List<String> headBuild = List.of();
        List<String> jmh = new ArrayList<>();
        for (int i = 2; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--precision" -> precision = Numbers.percent(FlagValue.of(args, ++i, a, "a percentage, e.g. 2%"), a);
                case "--budget" -> {
                    budget = FlagValue.of(args, ++i, a, "a duration, e.g. 20m");
                    budgetSeconds = Numbers.duration(budget, a).toSeconds();
                }
                case "--forks" -> forks = Numbers.wholeAtLeast(FlagValue.of(args, ++i, a, "forks per side, e.g. 10"), 3, a,
                        "forks per side, e.g. 10");
                case "--min-effect" -> minEffect = Numbers.percent(FlagValue.of(args, ++i, a, "a percentage, e.g. 3%"), a);
                case "--fail-on-regression" -> fail = true;
                case "--seed" -> seed = (long) Numbers.wholeAtLeast(FlagValue.of(args, ++i, a, "a whole number"), 0, a,
                        "a whole number");
                case "--offline" -> offline = true;
                case "--out" -> out = Path.of(FlagValue.of(args, ++i, a, "a folder"));
                case "--head-args" -> headArgs = words(options(args, ++i, a));
                case "--base-build" -> baseBuild = words(options(args, ++i, a));
                case "--head-build" -> headBuild = words(options(args, ++i, a));
                case "--pin" -> {
                    boolean listed = i + 1 < args.size() && !args.get(i + 1).isEmpty()
                            && Character.isDigit(args.get(i + 1).charAt(0));
                    pin = listed ? args.get(++i) : "0";
                }
                case "--duet" -> duet = true;
                case "--turns" -> turns = true;
                case "--no-where" -> where = false;
                case "--where-every" -> whereEvery = Numbers.wholeAtLeast(FlagValue.of(args, ++i, a, "a number of pairs"), 1, a,
                        "a number of pairs, e.g. 2");
                default -> jmh.add(a);
            }
        }
        if (duet && turns) {
            throw new BenchException("--duet and --turns are two ways to run a pair; give one");
        }
        String forksFrom = forks != null ? "--forks " + forks : "the default without --forks";
        int n = forks != null ? forks : Double.isNaN(precision) ? 10 : 60;
        long s = seed != null ? seed : System.currentTimeMillis() / 1000 % 32768;
        return new CommitsRequest(args.get(0), args.get(1), jmh, precision, budgetSeconds, budget, n, forksFrom,
                minEffect, fail, out, headArgs, pin, duet, turns, s, offline, where, whereEvery, baseBuild, headBuild);
    }

    private static List<String> words(String v) {
        return v.isBlank() ? List.of() : Arrays.asList(v.strip().split("\\s+"));
    }

    /** The value of a flag that takes options of its own ({@code --head-args "-jvmArgsAppend ..."}). */
    private static String options(List<String> args, int i, String flag) throws BenchException {
        if (i >= args.size()) {
            throw new BenchException(flag + " needs a value; expected options in one argument, e.g. " + flag
                    + " \"-Donnxruntime.version=1.22.0\"");
        }
        return args.get(i);
    }
}
