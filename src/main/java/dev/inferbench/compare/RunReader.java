package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.run.RunStore;
import org.openjdk.jmh.results.RunResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The cells of a run folder, every fork kept apart: read from the run loop's store (JMH's own result objects per
 * fork), so no JMH JSON is parsed here.
 */
public final class RunReader {
    private RunReader() {
    }

    public static List<CellResults> read(Path dir) throws BenchException {
        if (!Files.isDirectory(dir)) {
            throw new BenchException(dir + " is not a run folder; expected a folder made by a run, e.g. "
                    + "results/20261122-101500-abc1234");
        }
        RunStore store = RunStore.open(dir);
        List<CellResults> cells = new ArrayList<>();
        for (RunResult r : store.merged(store.plan().runnableCells())) {
            cells.add(ResultCells.of(r));
        }
        if (cells.isEmpty()) {
            throw new BenchException(dir + " holds no measured cell (no fork landed); expected a run with results");
        }
        return cells;
    }
}
