package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.stats.StoppingRule;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * The pairs of a comparison: each pair runs base then head or head then base by a seeded coin (recorded in
 * pair-order.txt), so that an order effect is noise the interval sees instead of a bias in every pair; around each
 * fork and between pairs the machine record ({@link MachineLog}); before a pair (or every K-th) each side's operator
 * pass; after each pair, with a precision, the stop question asked in-process ({@link StopAnswer}: its answer never
 * depends on where an interval lies or on a verdict, which only the compare at the end declares). Where each pair's
 * wall time went is one line in pair-time.tsv.
 */
final class PairLoop {
    /** Pairs whose spread fixes how many pairs an adaptive comparison runs. */
    static final int PILOT = StoppingRule.PILOT_PAIRS;
    /** The share of a comparison's time its operator passes may take when K is chosen from the first pair. */
    private static final double PASS_SHARE = 0.15;

    private final CommitsRequest request;
    private final Map<String, PacedLauncher> sides;
    private final CpuPlan cpus;
    private final Path out;
    private final ComparisonFolder folder;
    private final PrintStream say;
    private final StopQuestion stopQuestion;
    private final MachineLog machine;
    private final Path duetDir;
    private boolean where;
    private int whereEvery;
    long passMillis;
    int pairs;
    /** Forks that failed and were run again: their launchers end with the exit of a run whose cells failed. */
    int replaced;

    /** "Run another pair?", asked of both sides' merged results. */
    @FunctionalInterface
    interface StopQuestion {
        StopAnswer ask() throws Stop;
    }

    PairLoop(CommitsRequest request, Map<String, PacedLauncher> sides, CpuPlan cpus, Path out, boolean where,
             PrintStream say, StopQuestion stopQuestion, double ticksPerSecond) throws Stop {
        this.request = request;
        this.sides = sides;
        this.cpus = cpus;
        this.out = out;
        this.folder = new ComparisonFolder(out);
        this.where = where;
        this.whereEvery = request.whereEvery() > 0 ? request.whereEvery() : 1;
        this.say = say;
        this.stopQuestion = stopQuestion;
        this.duetDir = out.resolve("duet").resolve("now");
        this.machine = new MachineLog(out, ticksPerSecond);
    }

    /** A process of the comparison's own whose CPU the machine record counts as ours, not as other processes'. */
    void alsoOurs(long pid) {
        machine.alsoOurs(pid);
    }

    /** Runs pairs until the plan, the stop rule or the budget ends them; why they ended, for the closing line. */
    String run(long startMillis) throws Stop {
        Random coin = new Random(request.seed());
        folder.write("pair-order.txt", "seed " + request.seed());
        if (where) {
            folder.write("where.tsv", "pair\tside\tms");
        }
        folder.write("pair-time.tsv", "pair\tpasses_ms\tforks_ms\tcanary_ms\twrite_ms\tstop_ms\trest_ms\tpair_ms");
        machine.canary();
        int nextLook = PILOT; // no stop can come before the pilot's last pair
        while (true) {
            long u0 = micros();
            long passUs = 0;
            long writeUs = 0;
            long stopUs = 0;
            int beforeBase = landed("base");
            int beforeHead = landed("head");
            String first = coin.nextBoolean() ? "base" : "head";
            String second = first.equals("base") ? "head" : "base";
            // only while both sides have forks to run: a launcher past its last fork is writing its summary
            if (where && pairs % whereEvery == 0 && beforeBase < request.forks() && beforeHead < request.forks()) {
                long u1 = micros();
                operatorPass(first, pairs + 1);
                operatorPass(second, pairs + 1);
                passUs = micros() - u1;
            }
            long u1 = micros();
            if (request.paired()) {
                together(pairs + 1, first);
            } else {
                step(first);
                step(second);
            }
            checkSide("base", beforeBase);
            checkSide("head", beforeHead);
            long forksUs = micros() - u1;
            if (landed("head") <= beforeHead && landed("base") <= beforeBase) { // nothing more in the plan
                return "each side ran the " + request.forks() + " forks it was given (" + request.forksFrom() + ")";
            }
            u1 = micros();
            machine.canary();
            long canaryUs = micros() - u1;
            List<String> forked = new ArrayList<>();
            if (landed("base") > beforeBase) {
                forked.add("base");
            }
            if (landed("head") > beforeHead) {
                forked.add("head");
            }
            machine.recordPair(pairs + 1, forked);
            if (request.turns()) {
                folder.append("pair-order.txt", "pair " + (pairs + 1) + ": " + first + " leads the odd rounds");
            } else if (!request.duet()) {
                folder.append("pair-order.txt", "pair " + (pairs + 1) + ": " + first + " first");
            }
            pairs++;
            long last = (micros() - u0) / 1_000_000;
            long elapsed = (System.currentTimeMillis() - startMillis) / 1000;
            String placed = request.duet() ? " (base on CPUs " + cpus.cpusOf("base", pairs) + ", head on "
                    + cpus.cpusOf("head", pairs) + ")" : "";
            say.println("[compare-commits] pair " + pairs + " done (" + last + "s)" + placed + "; base "
                    + landed("base") + " forks, head " + landed("head") + " forks; elapsed " + elapsed + "s");
            StopAnswer answer = null;
            // asked only where its answer can be stop: from the pilot's last pair, then from the pair it names
            if (!Double.isNaN(request.precision()) && pairs >= nextLook) {
                long u2 = micros();
                writeResults();
                writeUs = micros() - u2;
                answer = stopQuestion.ask();
                say.println("[compare-commits] " + answer.line());
                stopUs = micros() - u2 - writeUs;
                nextLook = Math.max(pairs + 1, answer.stop() ? 0 : answer.nextLook());
            }
            long all = micros() - u0;
            folder.append("pair-time.tsv", pairs + "\t" + MachineLog.ms(passUs) + "\t" + MachineLog.ms(forksUs) + "\t"
                    + MachineLog.ms(canaryUs) + "\t" + MachineLog.ms(writeUs) + "\t" + MachineLog.ms(stopUs) + "\t"
                    + MachineLog.ms(all - passUs - forksUs - canaryUs - writeUs - stopUs) + "\t" + MachineLog.ms(all));
            if (where && request.whereEvery() == 0 && pairs == 1) {
                chooseWhereEvery(passUs, forksUs);
            }
            if (answer != null && answer.stop()) {
                return "compare answered " + answer.reason();
            }
            if (request.budgetSeconds() > 0 && elapsed + last > request.budgetSeconds()) {
                say.println("[compare-commits] budget " + request.budget() + " spent");
                return "the budget " + request.budget() + " was spent";
            }
        }
    }

    /**
     * Passes of under a second a pair are kept before every pair, whatever their share (a tiny cell's forks are
     * short); longer ones every K-th pair, the smallest K that keeps them to {@link #PASS_SHARE} of the time:
     * passes every K-th pair take pass / (K forks + pass) of it.
     */
    private void chooseWhereEvery(long passUs, long forksUs) {
        if (passUs < 1_000_000 || forksUs <= 0) {
            return;
        }
        whereEvery = Math.max(1, (int) Math.ceil(passUs * (1 - PASS_SHARE) / (PASS_SHARE * forksUs)));
        if (whereEvery > 1) {
            say.println("[compare-commits] operator passes before one pair in " + whereEvery + ": a pair's passes"
                    + " took " + MachineLog.ms(passUs / 1000) + " s against its forks' " + MachineLog.ms(forksUs / 1000)
                    + " s, and the passes keep to 15 % of the comparison (--where-every 1: before every pair)");
        }
    }

    private void operatorPass(String side, int pair) throws Stop {
        long t0 = micros();
        PacedLauncher l = sides.get(side);
        if (!l.ended()) {
            l.exchange(dev.inferbench.run.Pacer.PASS + " " + pair);
        }
        long t = micros() - t0;
        folder.append("where.tsv", pair + "\t" + side + "\t" + MachineLog.ms(t));
        passMillis += t / 1000;
    }

    /** Has each side that speaks it write its merged result, which the stop question reads. */
    private void writeResults() throws Stop {
        for (PacedLauncher l : sides.values()) {
            if (l.protocol() >= 2 && !l.ended()) {
                l.exchange(dev.inferbench.run.Pacer.WRITE);
            }
        }
    }

    /** One fork of one side (it is ready when this is called). */
    private void step(String side) throws Stop {
        PacedLauncher l = sides.get(side);
        if (l.ended()) {
            return;
        }
        machine.forkBegan(side, pids());
        l.exchange("go");
        machine.forkEnded(side, pids());
    }

    /**
     * {@code --duet} and {@code --turns}: both sides' forks of the pair at once, then the wait for both. In a duet
     * the side that warms up first alternates as the halves do; in turns the coin's pick leads the odd rounds. The
     * barrier's folder is emptied before each pair; its files are kept as duet/pair-N.
     */
    private void together(int pair, String first) throws Stop {
        if (Files.isDirectory(duetDir)) {
            keepPair(pair - 1);
        }
        try {
            Files.createDirectories(duetDir);
            String warmup = request.turns() ? "first=" + first + "\n"
                    : "first=" + (pair % 2 == 1 ? "base" : "head") + "\ncpus=" + cpus.halfA() + "," + cpus.halfB() + "\n";
            AtomicFile.write(duetDir.resolve("warmup"), warmup.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw Stop.failure("cannot prepare " + duetDir + ": " + e.getMessage());
        }
        List<String> sent = new ArrayList<>();
        for (String side : List.of("base", "head")) {
            PacedLauncher l = sides.get(side);
            if (l.ended()) {
                continue;
            }
            if (request.duet()) {
                Commands.run(List.of("taskset", "-a", "-p", "-c", cpus.cpusOf(side, pair), String.valueOf(l.pid())),
                        out, null);
            }
            machine.forkBegan(side, pids());
            if (l.send("go")) {
                sent.add(side);
            }
        }
        for (String side : sent) {
            sides.get(side).untilReady();
        }
        // both forks ran at once: each side's window is the pair's
        for (String side : sent) {
            machine.forkEnded(side, pids());
        }
    }

    /** Files the barrier's folder as pair {@code pair}'s record, or drops it when no fork used it. */
    void keepPair(int pair) throws Stop {
        if (!Files.isDirectory(duetDir)) {
            return;
        }
        try (Stream<Path> files = Files.list(duetDir)) {
            boolean used = files.map(p -> p.getFileName().toString())
                    .anyMatch(n -> n.startsWith("base.") || n.startsWith("head."));
            if (used) {
                Files.move(duetDir, duetDir.resolveSibling("pair-" + pair));
            } else {
                try (Stream<Path> left = Files.list(duetDir)) {
                    for (Path p : left.toList()) {
                        Files.delete(p);
                    }
                }
                Files.delete(duetDir);
            }
        } catch (IOException e) {
            throw Stop.failure("cannot keep " + duetDir + ": " + e.getMessage());
        }
    }

    /** After a pair: the side's fork landed, or its launcher ended cleanly with its plan. */
    /**
     * After a pair: the side's fork landed, or its launcher ended cleanly with its plan. A fork that failed while its
     * launcher ran on (a crash, a kill) is run once more at once, so that it still runs next to the other side's fork
     * of the pair and the pair is kept; in a duet or in turns the partner has already gone, and a second failure is
     * the comparison's.
     */
    private void checkSide(String side, int before) throws Stop {
        if (landed(side) > before) {
            return;
        }
        PacedLauncher l = sides.get(side);
        if (!l.ended() && !request.paired()) {
            say.println("[compare-commits] a " + side + " fork failed at pair " + (pairs + 1) + " (no result landed;"
                    + " see " + out.resolve(side + ".log") + "); running it again");
            replaced++;
            step(side);
            if (landed(side) > before) {
                return;
            }
        }
        if (!l.ended()) {
            throw Stop.failure("a " + side + " fork failed at pair " + (pairs + 1) + (request.paired() ? "" : ", twice")
                    + " (no result landed, the launcher ran on); see " + out.resolve(side + ".log"));
        }
        CommitsFlow.reap(l, landed(side), out, replaced);
    }

    int landed(String side) {
        return folder.landed(side);
    }

    private long[] pids() {
        return sides.values().stream().mapToLong(PacedLauncher::pid).toArray();
    }

    private static long micros() {
        return System.nanoTime() / 1000;
    }
}
