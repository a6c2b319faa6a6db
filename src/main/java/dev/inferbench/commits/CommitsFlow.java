package dev.inferbench.commits;

import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.PilotRecord;
import dev.inferbench.flow.CompareFlow;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An interleaved A/B comparison of two commits, from its parsed flags to its exit code: each commit's jar built in a
 * git worktree of its own (a side given as {@code .} or as a built checkout is used as it is), one paced launcher
 * per side for the whole comparison, the pairs ({@link PairLoop}), then {@code compare} of the two run folders
 * in-process, which pairs fork N of each side (the two ran next to each other) and builds the ratio's interval from
 * the per-pair ratios. With a precision the first {@link PairLoop#PILOT} pairs fix how many pairs run from their
 * spread alone (Stein's two stages), and the final interval keeps the pilot's degrees of freedom
 * ({@link PilotRecord}). Exit codes are compare's (0, 1, 3), or 2 for bad input or a side that does not build, 4 for
 * any other failure: a fork of either side that failed, a launcher that ended early.
 */
public final class CommitsFlow {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    private final Tools tools;
    private final Verdicts verdicts;
    private final PrintStream out;
    private final PrintStream err;

    public CommitsFlow(Tools tools, Verdicts verdicts, PrintStream out, PrintStream err) {
        this.tools = tools;
        this.verdicts = verdicts;
        this.out = out;
        this.err = err;
    }

    public int run(CommitsRequest request) {
        try {
            return compare(request);
        } catch (Stop e) {
            err.println("inferbench: " + e.getMessage());
            return e.exitCode();
        }
    }

    private int compare(CommitsRequest r) throws Stop {
        Side.checkOptions("base", r.baseBuild());
        Side.checkOptions("head", r.headBuild());
        Commands top = Commands.run(List.of(tools.git(), "rev-parse", "--show-toplevel"), tools.cwd(), null);
        if (!top.ok()) {
            throw Stop.badInput("not inside a git checkout");
        }
        Path repo = Path.of(top.output().strip());
        CpuPlan cpus = CpuPlan.of(r, repo);
        Side base = Side.resolve("base", r.base(), r.baseBuild(), repo, tools);
        Side head = Side.resolve("head", r.head(), r.headBuild(), repo, tools);
        Path folder = r.out() != null ? repo.resolve(r.out())
                : repo.resolve("results").resolve("compare-" + base.shortSha() + "-" + head.shortSha() + "-"
                        + LocalDateTime.now().format(STAMP));
        if (r.paired() && folder.toString().matches(".*\\s.*")) {
            throw Stop.badInput("--" + (r.duet() ? "duet" : "turns") + " needs an --out folder without spaces (JMH"
                    + " splits -jvmArgsAppend at them): '" + folder + "'");
        }
        Path trees;
        try {
            Files.createDirectories(folder);
            folder = folder.toRealPath();
            trees = Files.createTempDirectory("compare-commits");
        } catch (IOException e) {
            throw Stop.failure("cannot make " + folder + ": " + e.getMessage());
        }
        Map<String, PacedLauncher> launchers = java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>());
        // an interrupted comparison (Ctrl-C, a CI job cancelled) still ends its launchers and removes its worktrees
        Thread interrupted = new Thread(() -> cleanUp(launchers, base, head, trees, repo), "compare-commits-cleanup");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            for (Side side : List.of(base, head)) {
                if (side.needsBuild()) {
                    side.build(trees, folder, r.offline(), tools, repo, out);
                }
            }
            for (Side side : List.of(base, head)) {
                out.println("[compare-commits] " + side.name + " " + side.label()
                        + (side.build.isEmpty() ? "" : " (" + String.join(" ", side.build) + ")") + ": "
                        + side.versions(tools));
            }
            return run(r, repo, cpus, base, head, folder, launchers);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException e) {
                // the JVM is already shutting down: the hook cleans up
            }
            cleanUp(launchers, base, head, trees, repo);
        }
    }

    /** Ends the launchers, then removes the worktrees they ran in; a second call finds nothing left to do. */
    private void cleanUp(Map<String, PacedLauncher> launchers, Side base, Side head, Path trees, Path repo) {
        launchers.values().forEach(PacedLauncher::close);
        for (Side side : List.of(base, head)) {
            if (side.tree != null && side.tree.startsWith(trees) && Files.isDirectory(side.tree)) {
                try {
                    Commands.run(List.of(tools.git(), "worktree", "remove", "--force", side.tree.toString()), repo,
                            null);
                } catch (Stop e) {
                    // a worktree left behind is pruned by the next comparison
                }
            }
        }
        delete(trees);
        try {
            Commands.run(List.of(tools.git(), "worktree", "prune"), repo, null);
        } catch (Stop e) {
            // as above
        }
    }

    private int run(CommitsRequest r, Path repo, CpuPlan cpus, Side base, Side head, Path folder,
                    Map<String, PacedLauncher> launchers) throws Stop {
        long start = System.currentTimeMillis();
        if (r.duet()) {
            out.println("[compare-commits] duet: each side on its half of CPUs " + cpus.halfA() + " | " + cpus.halfB()
                    + ", swapped every pair; -p " + cpus.jmhArgs().get(cpus.jmhArgs().size() - 1));
        } else if (r.turns()) {
            out.println("[compare-commits] turns: both sides' forks of a pair at once, one iteration at a time each,"
                    + " the lead A B B A" + (cpus.pinned() ? " on CPUs " + CpuPlan.joined(cpus.cpus()) : ""));
        } else if (cpus.pinned()) {
            out.println("[compare-commits] pinned: every fork of both sides on CPUs " + CpuPlan.joined(cpus.cpus())
                    + "; -p " + cpus.jmhArgs().get(cpus.jmhArgs().size() - 1));
        }
        for (Side side : List.of(base, head)) {
            launchers.put(side.name, launch(r, cpus, side, folder));
        }
        for (Side side : List.of(base, head)) {
            PacedLauncher l = launchers.get(side.name);
            if (!l.untilReady()) {
                throw Stop.badInput("the " + side.name + " side did not start (a build without --paced launchers"
                        + " cannot be compared); see " + folder.resolve(side.name + ".log"));
            }
            l.handshake(side.tree.resolve(Side.JAR));
        }
        boolean where = r.where() && !r.duet(); // the passes want all CPUs; a duet pins its launchers to halves
        if (where) {
            for (Side side : List.of(base, head)) {
                int p = launchers.get(side.name).protocol();
                if (p < 4) {
                    out.println("[compare-commits] no operator passes: the " + side.name + " side's build predates"
                            + " them (paced protocol " + p + "); no \"where\" tables");
                    where = false;
                    break;
                }
            }
        }
        CompareFlow.Request stopRequest = compareRequest(r, folder, false);
        PairLoop loop = new PairLoop(r, launchers, cpus, folder, where, out, () -> stopAnswer(stopRequest, r),
                ticksPerSecond(repo));
        if (!Double.isNaN(r.precision())) {
            try {
                PilotRecord.write(folder, PairLoop.PILOT);
            } catch (IOException e) {
                throw Stop.failure("cannot write " + folder.resolve(PilotRecord.FILE) + ": " + e.getMessage());
            }
        }
        String stopped;
        KeptBusy busy = r.keepBusy() == null ? null : KeptBusy.start(CpuPlan.cpus(r.keepBusy()));
        try {
            if (busy != null) {
                loop.alsoOurs(busy.pid());
                out.println("[compare-commits] CPUs " + r.keepBusy() + " kept busy for the comparison (process "
                        + busy.pid() + ", counted as the comparison's own)");
            }
            stopped = loop.run(start);
        } finally {
            if (busy != null) {
                busy.close();
            }
        }
        launchers.values().forEach(PacedLauncher::closeInput); // both write their summaries at once
        for (PacedLauncher l : launchers.values()) {
            l.finish();
            reap(l, loop.landed(l.side), folder, loop.replaced);
        }
        if (r.paired()) {
            loop.keepPair(loop.pairs);
        }
        if (loop.landed("base") == 0 || loop.landed("head") == 0) {
            throw Stop.badInput("no fork landed; see " + folder.resolve("base.log") + " and "
                    + folder.resolve("head.log"));
        }
        long total = (System.currentTimeMillis() - start) / 1000;
        out.println("[compare-commits] " + r.base() + " (" + base.shortSha() + ") vs " + r.head() + " ("
                + head.shortSha() + "), " + total + "s; runs in " + folder);
        if (where) {
            long passes = countLines(folder.resolve("where.tsv")) - 1;
            out.printf(Locale.ROOT, "[compare-commits] operator passes: %d in %s s, %.1f %% of the comparison's %d s"
                            + " (each in %s/where.tsv; --no-where leaves them out)%n", passes,
                    MachineLog.ms(loop.passMillis), loop.passMillis / 10.0 / Math.max(1, total), total, folder);
        }
        String left = "";
        if (r.budgetSeconds() > 0 && stopped.startsWith("each side")) {
            left = "; " + Math.max(0, r.budgetSeconds() - total) + "s of the budget " + r.budget()
                    + " were left unused: --forks N runs more pairs"
                    + (Double.isNaN(r.precision()) ? ", or --precision P as many as an interval that narrow needs" : "");
        }
        out.println("[compare-commits] stopped after " + loop.pairs + " pairs: " + stopped + left);
        try {
            return verdicts.compare(compareRequest(r, folder, r.failOnRegression()), out, err);
        } catch (BenchException e) {
            throw Stop.badInput(e.getMessage());
        }
    }

    private PacedLauncher launch(CommitsRequest r, CpuPlan cpus, Side side, Path folder) throws Stop {
        List<String> extra = new ArrayList<>();
        if (side.name.equals("head")) {
            extra.addAll(r.headArgs());
        }
        List<String> options = new ArrayList<>();
        if (r.paired()) {
            extra.add("-jvmArgsAppend");
            extra.add("-D" + "inferbench.duet=" + folder.resolve("duet").resolve("now") + ":" + side.name
                    + (r.turns() ? ":turns" : ""));
            // JMH's machine-wide lock exists so that two runs never measure at once, which a duet does on purpose
            // (and two forks alive at once in turns); one side still takes it, so a third run waits for them
            options.add("-Djmh.ignoreLock=true");
        }
        List<String> args = new ArrayList<>(List.of("-jar", Side.JAR));
        args.addAll(cpus.jmhArgs());
        args.addAll(extra);
        args.addAll(List.of("-f", String.valueOf(r.forks()), "--run-dir", folder.resolve(side.name).toString(),
                "--paced", "-v", "SILENT"));
        List<String> cmd = new ArrayList<>();
        if (cpus.pinned()) {
            // the fork JVMs a launcher starts inherit its CPUs; a duet moves the launcher to its half before each pair
            cmd.addAll(List.of("taskset", "-c", cpus.cpusOf(side.name, 1)));
        }
        cmd.addAll(tools.javaCommand(options, args));
        return PacedLauncher.start(side.name, cmd, side.tree, folder.resolve(side.name + ".log"));
    }

    private static CompareFlow.Request compareRequest(CommitsRequest r, Path folder, boolean failOnRegression) {
        return new CompareFlow.Request(List.of(folder.resolve("base"), folder.resolve("head")), r.minEffect(),
                failOnRegression, false, false, false, false, r.gate(), List.of(), r.precision(),
                "table", false);
    }

    private dev.inferbench.compare.StopAnswer stopAnswer(CompareFlow.Request request, CommitsRequest r) throws Stop {
        try {
            return verdicts.stopAnswer(request, PairLoop.PILOT, r.forks());
        } catch (BenchException | RuntimeException e) {
            throw Stop.failure("compare could not answer whether to stop: " + e.getMessage());
        }
    }

    /**
     * A launcher that failed fails the comparison; one that says some cells failed is done when this comparison ran
     * its failed forks again ({@code replaced}).
     */
    static void reap(PacedLauncher l, int landed, Path folder, int replaced) throws Stop {
        int rc = l.reap();
        if (rc != 0 && !(rc == ExitCode.FAILED && replaced > 0)) {
            throw Stop.failure("the " + l.side + " side's launcher ended with exit " + rc + " after " + landed
                    + " forks; see " + folder.resolve(l.side + ".log"));
        }
    }

    private double ticksPerSecond(Path repo) {
        try {
            return Double.parseDouble(Commands.stdout(List.of("getconf", "CLK_TCK"), repo).output().strip());
        } catch (Stop | NumberFormatException e) {
            return 100;
        }
    }

    private static long countLines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            return 0;
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind is the system's to clear
        }
    }
}
