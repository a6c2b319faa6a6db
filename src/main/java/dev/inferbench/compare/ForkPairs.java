package dev.inferbench.compare;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

/**
 * Which forks of a cell's two sides were measured as pairs: fork N of the baseline with fork N of the candidate when
 * they ran next to each other, one right after the other or at the same time, as compare-commits runs them
 * (A, B, A, B ..., or in a duet). Two runs made at different times have no pairs, and compare falls back to the
 * unpaired interval: the pairing is read off the forks' wall times, never assumed.
 *
 * <p>A pair counts when no other fork of the cell (either side) started between the two, and the gap between the
 * first one's end and the second one's start is at most the longer fork's own duration (a run resumed an hour later
 * is not paired with the fork before the pause).
 *
 * @param baseline  per pair, the index of the baseline's fork in its series (the order its forks were merged in)
 * @param candidate the same for the candidate
 * @param leftOut   forks of either side that have no partner (failed on the other side, or the two runs made apart)
 * @param disturbed pairs left out because the machine was disturbed during one of their forks ({@link MachineRecord},
 *                  else the forks' own figures); the disturbance is the machine's, not the code's, so leaving the whole pair out takes
 *                  nothing from one side only ({@code DisturbedPairsTest})
 * @param apart     pairs left out by the gap rule: their two forks ran one after the other, but the second started
 *                  longer after the first ended than a fork lasts (it waited: another job measuring on the machine, a
 *                  resumed comparison), so what drifted in between is not shared
 */
public record ForkPairs(int[] baseline, int[] candidate, int leftOut, int disturbed, int apart) {
    /** Fewer pairs than this and the paired interval is not used: its t quantile at 1 degree of freedom is 64. */
    public static final int MIN_PAIRS = 3;

    public static final ForkPairs NONE = new ForkPairs(new int[0], new int[0], 0, 0, 0);

    public int count() {
        return baseline.length;
    }

    public boolean usable() {
        return count() >= MIN_PAIRS;
    }

    /**
     * @param baseline  the baseline's landed forks in series order (empty when unknown)
     * @param candidate the candidate's
     */
    public static ForkPairs of(List<ForkStamp> baseline, List<ForkStamp> candidate) {
        return of(baseline, candidate, false);
    }

    /**
     * @param keepDisturbed whether pairs with a disturbed fork count too ({@code compare --keep-disturbed})
     */
    public static ForkPairs of(List<ForkStamp> baseline, List<ForkStamp> candidate, boolean keepDisturbed) {
        if (baseline.isEmpty() || candidate.isEmpty()) {
            return NONE;
        }
        List<ForkStamp> all = new ArrayList<>(baseline);
        all.addAll(candidate);
        all.sort(Comparator.comparing(ForkStamp::start));
        Map<Integer, Integer> candidateByFork = new HashMap<>();
        for (int j = 0; j < candidate.size(); j++) {
            candidateByFork.put(candidate.get(j).fork(), j);
        }
        List<int[]> pairs = new ArrayList<>();
        int disturbed = 0;
        int apart = 0;
        for (int i = 0; i < baseline.size(); i++) {
            ForkStamp a = baseline.get(i);
            Integer j = candidateByFork.get(a.fork());
            if (j == null || !nextTo(a, candidate.get(j), all)) {
                continue;
            }
            ForkStamp b = candidate.get(j);
            if (!closeEnough(a, b)) {
                apart++;
                continue;
            }
            if (!keepDisturbed && (a.disturbed() || b.disturbed())) {
                disturbed++;
            } else {
                pairs.add(new int[]{i, j});
            }
        }
        int[] bi = pairs.stream().mapToInt(p -> p[0]).toArray();
        int[] ci = pairs.stream().mapToInt(p -> p[1]).toArray();
        return new ForkPairs(bi, ci, baseline.size() + candidate.size() - 2 * (bi.length + disturbed + apart),
                disturbed, apart);
    }

    /** No other fork of the cell started between the two. */
    private static boolean nextTo(ForkStamp a, ForkStamp b, List<ForkStamp> all) {
        ForkStamp first = a.start().isAfter(b.start()) ? b : a;
        ForkStamp second = first == a ? b : a;
        return all.indexOf(second) - all.indexOf(first) == 1;
    }

    /** The gap rule: the second fork started at most the longer fork's duration after the first one ended. */
    private static boolean closeEnough(ForkStamp a, ForkStamp b) {
        ForkStamp first = a.start().isAfter(b.start()) ? b : a;
        ForkStamp second = first == a ? b : a;
        Duration longer = max(Duration.between(a.start(), a.end()), Duration.between(b.start(), b.end()));
        return Duration.between(first.end(), second.start()).compareTo(longer) <= 0;
    }

    private static Duration max(Duration x, Duration y) {
        return x.compareTo(y) >= 0 ? x : y;
    }

    /** The rows of {@code forks} at the given indices, in pair order. */
    public static double[][] select(double[][] forks, int[] indices) {
        double[][] out = new double[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            out[i] = forks[indices[i]];
        }
        return out;
    }
}
