package dev.inferbench.report;

import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.Comparison;
import dev.inferbench.compare.ForkPairs;
import dev.inferbench.results.MachineState;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The line under a compare table that says which interval the ratios come from: paired over the forks run side by
 * side, or the two sides as independent samples (Welch), and for every pair left out how many, why and what to do.
 * A comparison whose forks took turns but lost its pairs (to the gap rule or to a disturbed machine) reads very
 * differently from two runs made apart, though both end unpaired: the first is a noisier comparison than it needed to
 * be, and says so.
 */
final class PairingLine {
    private static final String GAP = "their second fork started longer after the first ended than a fork lasts:"
            + " something ran between them, such as another job measuring on the machine";
    private static final String GAP_FIX = "rerun compare-commits while no other job measures on the machine";

    private PairingLine() {
    }

    static String of(Comparer.Report report) {
        List<Comparison> paired = report.rows().stream().filter(Comparison::paired).toList();
        List<ForkPairs> lost = report.rows().stream().filter(r -> !r.paired()).map(r -> report.forkPairs().get(r.cell()))
                .filter(p -> p != null && !p.usable() && p.apart() + p.disturbed() > 0).distinct().toList();
        if (paired.isEmpty()) {
            return lost.isEmpty() ? "ratio intervals: the two sides as independent samples (Welch): the runs' forks"
                    + " were not measured side by side (compare-commits measures them in pairs)"
                    : "ratio intervals: the two sides as independent samples (Welch), though the forks took turns: "
                    + lostPairs(lost);
        }
        int welch = report.rows().size() - paired.size();
        int fewest = paired.stream().mapToInt(r -> r.pairs().count()).min().orElse(0);
        int most = paired.stream().mapToInt(r -> r.pairs().count()).max().orElse(0);
        int leftOut = paired.stream().mapToInt(r -> r.pairs().leftOut()).max().orElse(0);
        int disturbed = paired.stream().mapToInt(r -> r.pairs().disturbed()).max().orElse(0);
        int apart = paired.stream().mapToInt(r -> r.pairs().apart()).max().orElse(0);
        List<String> notes = new ArrayList<>();
        notes.add((fewest == most ? fewest + "" : fewest + "-" + most) + " pairs");
        if (leftOut > 0) {
            notes.add(leftOut + " unpaired forks left out");
        }
        if (disturbed > 0) {
            notes.add(pairs(disturbed) + " left out: " + disturbedWhy() + "; --keep-disturbed keeps them");
        }
        if (apart > 0) {
            notes.add(pairs(apart) + " left out by the gap rule: " + GAP + "; " + GAP_FIX);
        }
        return "ratio intervals: paired, over the per-pair ratios of forks run side by side ("
                + String.join(", ", notes) + ")"
                + (welch > 0 ? "; " + welch + " rows unpaired (Welch)" + (lost.isEmpty() ? "" : ": " + lostPairs(lost))
                : "");
    }

    /** How many pairs the unpaired cells lost and to what, and what to do: one sentence for all of them. */
    private static String lostPairs(List<ForkPairs> lost) {
        int kept = lost.stream().mapToInt(ForkPairs::count).sum();
        int apart = lost.stream().mapToInt(ForkPairs::apart).sum();
        int disturbed = lost.stream().mapToInt(ForkPairs::disturbed).sum();
        List<String> why = new ArrayList<>();
        if (apart > 0) {
            why.add(apart + " left out by the gap rule (" + GAP + ")");
        }
        if (disturbed > 0) {
            why.add(disturbed + " left out as " + disturbedWhy());
        }
        List<String> fix = new ArrayList<>();
        if (apart > 0) {
            fix.add(GAP_FIX);
        }
        if (disturbed > 0) {
            fix.add("compare with --keep-disturbed to keep the disturbed pairs");
        }
        return "of " + pairs(kept + apart + disturbed) + (lost.size() == 1 ? "" : " in " + lost.size() + " cells")
                + ", " + String.join(" and ", why) + ", leaving " + kept + (lost.size() == 1 ? "" : " in all")
                + ", fewer than the " + ForkPairs.MIN_PAIRS + " a paired interval needs; " + String.join(", or ", fix);
    }

    private static String disturbedWhy() {
        return String.format(Locale.ROOT, "the machine was disturbed (a canary %.0f %% or more slower than its median,"
                + " or other processes %.2f cores or more above theirs)",
                MachineState.SLOW_CANARY * 100, MachineState.BURST_CORES);
    }

    private static String pairs(int n) {
        return n + " pair" + (n == 1 ? "" : "s");
    }
}
