package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.BenchException;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --shard i/n}: the i-th of n deterministic slices of a plan, so that n machines each run one and the
 * slices merge into the whole. Cells are dealt round-robin in plan order: every fork of a cell stays on one machine
 * (forks from different hardware must not be pooled), and since JMH's iterations are time-based every cell costs
 * about the same, so slices differ by at most one cell.
 */
public record Shard(int index, int count) {
    public static final Shard WHOLE = new Shard(1, 1);

    public static Shard parse(String text) throws BenchException {
        String[] parts = text.trim().split("/");
        try {
            if (parts.length == 2) {
                Shard s = new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
                if (s.count >= 1 && s.index >= 1 && s.index <= s.count) {
                    return s;
                }
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException("--shard '" + text + "' is not a slice; expected i/n with 1 <= i <= n, e.g. --shard 2/4");
    }

    /** The cells of this slice, in plan order. */
    public List<Cell> select(List<Cell> cells) {
        List<Cell> mine = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            if (i % count == index - 1) {
                mine.add(cells.get(i));
            }
        }
        return mine;
    }

    public boolean isWhole() {
        return count == 1;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
