package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.jmh.MeasuredCell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Spare forks: once every cell has its planned forks, a fork that the machine record marks as run while the machine
 * was disturbed ({@link MachineState#disturbedForks}: its canary, other processes' CPU, against the run's medians)
 * is replaced by one more fork of its cell, numbered after the planned ones (fork 5 of a 4-fork cell, so that a
 * resumed run and a shard see plain forks), until the cell has its planned count of quiet forks or its spares are
 * spent. The choice reads only the machine record, never a fork's latency: a slow fork on a quiet machine is kept.
 */
public final class Spares {
    /**
     * How many spares a cell may run: {@code count} forks, or {@code share} of its planned forks rounded up where
     * {@code count} is negative ({@code --rerun-disturbed N|P%}).
     */
    public record Budget(int count, double share) {
        /** A quarter more forks, rounded up: one spare for 4 forks, two for 5 to 8. */
        public static final Budget DEFAULT = new Budget(-1, 0.25);
        public static final Budget NONE = new Budget(0, 0);

        /** The spares of a cell of {@code planned} forks. */
        public int of(int planned) {
            return count >= 0 ? count : (int) Math.ceil(share * planned - 1e-9);
        }

        /** {@code 2} (forks per cell) or {@code 25%} (of its planned forks); 0 runs none. */
        public static Budget parse(String text, String flag) throws BenchException {
            String t = text.strip();
            if (t.endsWith("%")) {
                return new Budget(-1, Numbers.percent(t, flag));
            }
            return new Budget(Numbers.wholeAtLeast(t, 0, flag, "spare forks per cell, e.g. " + flag + " 2 or "
                    + flag + " 25%"), 0);
        }
    }

    /**
     * The next spare to run: fork {@code fork} of {@code cell} in place of fork {@code replaces}, which ran while the
     * machine was disturbed ({@code why}); spare {@code spare} of the cell's {@code of}.
     */
    public record Next(Cell cell, int fork, int replaces, String why, int spare, int of) {
        /** The progress line that says so. */
        public String line(String name) {
            return "[inferbench] " + name + ": fork " + replaces + " ran while the machine was disturbed (" + why
                    + "); fork " + fork + " runs in its place (spare " + spare + " of " + of + ")";
        }
    }

    private Spares() {
    }

    /**
     * The next spare of {@code cells}, in their order, or empty when none needs one.
     *
     * @param measured every landed fork of each cell with one (the run's medians come from all of them)
     * @param landed   each cell's landed fork numbers, in the order of the cell's forks in {@code measured}
     * @param skip     cells that get no spare (failed, or precise enough already)
     */
    public static Optional<Next> next(List<Cell> cells, Map<Cell, MeasuredCell> measured,
                                      Map<Cell, ? extends Set<Integer>> landed, Set<Cell> skip, int planned,
                                      Budget budget) {
        int allowed = budget.of(planned);
        if (allowed <= 0) {
            return Optional.empty();
        }
        List<MeasuredCell> all = new ArrayList<>();
        cells.forEach(c -> Optional.ofNullable(measured.get(c)).ifPresent(all::add));
        Optional<MachineState> machine = MachineState.of(all);
        if (machine.isEmpty()) {
            return Optional.empty();
        }
        for (Cell c : cells) {
            MeasuredCell m = measured.get(c);
            if (m == null || skip.contains(c)) {
                continue;
            }
            List<Integer> numbers = landed.get(c).stream().sorted().toList();
            String[] why = MachineState.reasons(m, machine.get().canaryMedian(), machine.get().othersMedian());
            long plannedLanded = numbers.stream().filter(f -> f <= planned).count();
            if (why.length != numbers.size() || plannedLanded < planned) {
                continue; // the record does not line up with the forks, or the cell's planned forks are not all in
            }
            int used = (int) numbers.stream().filter(f -> f > planned).count();
            List<Integer> disturbed = new ArrayList<>();
            for (int f = 0; f < why.length; f++) {
                if (!why[f].isEmpty()) {
                    disturbed.add(f);
                }
            }
            int quiet = why.length - disturbed.size();
            if (quiet >= planned || used >= allowed || disturbed.size() <= used) {
                continue;
            }
            int replaced = disturbed.get(used);
            int fork = numbers.get(numbers.size() - 1) + 1;
            return Optional.of(new Next(c, fork, numbers.get(replaced), why[replaced], used + 1, allowed));
        }
        return Optional.empty();
    }
}
