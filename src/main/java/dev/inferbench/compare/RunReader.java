package dev.inferbench.compare;

import dev.inferbench.results.ReceivedFolder;
import dev.inferbench.results.MachineState;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cells of a run, every fork kept apart: a run folder (its jmh-result.json) or any JMH JSON result file, read
 * through the one typed reader ({@link JmhJson}).
 */
public final class RunReader {

    private RunReader() {
    }

    public static List<CellResults> read(Path runOrFile) throws BenchException {
        return of(readCells(runOrFile));
    }

    /** The run's cells as the one JMH reader gives them; at least one, or a one-line error. */
    public static List<MeasuredCell> readCells(Path runOrFile) throws BenchException {
        ReceivedFolder.refuseLinks(runOrFile);
        Path file = RunLayout.resultOf(runOrFile);
        if (!Files.exists(file)) {
            throw new BenchException(runOrFile + (Files.isDirectory(runOrFile) ? " has no " + RunLayout.RESULT : " does not exist")
                    + "; expected a run folder (results/<run>) or a JMH JSON result file");
        }
        List<MeasuredCell> cells = JmhJson.read(file);
        if (cells.isEmpty()) {
            throw new BenchException(file + " holds no measured cell; expected a run with at least one landed fork");
        }
        return cells;
    }

    /**
     * Cells as the statistics need them, every fork kept apart, with when each fork ran where {@code runOrFile} is a
     * run folder that says so (what pairs the forks of two interleaved runs), and whether the machine was disturbed
     * during it: from the machine record of compare-commits beside the run ({@link MachineRecord}), taken
     * outside the measured JVMs, else from the figures each fork took of itself ({@link MachineState}).
     */
    public static List<CellResults> of(List<MeasuredCell> cells, Path runOrFile) throws BenchException {
        Optional<MachineRecord> outside = MachineRecord.beside(runOrFile);
        Optional<MachineState> machine = MachineState.of(cells);
        double canaryMedian = machine.map(MachineState::canaryMedian).orElse(Double.NaN);
        double othersMedian = machine.map(MachineState::othersMedian).orElse(Double.NaN);
        List<CellResults> out = new ArrayList<>();
        for (MeasuredCell c : cells) {
            CellResults r = CellResults.of(c);
            List<ForkStamp> stamps = List.of();
            if (Files.isDirectory(runOrFile)) {
                stamps = outside.isPresent() ? outside.get().flag(ForkTimes.stamps(runOrFile, c, new boolean[0]))
                        : ForkTimes.stamps(runOrFile, c, MachineState.disturbedForks(c, canaryMedian, othersMedian));
            }
            out.add(new CellResults(r.key(), r.mode(), r.metrics(), stamps));
        }
        return out;
    }

    /** Cells as the statistics need them, every fork kept apart. */
    public static List<CellResults> of(List<MeasuredCell> cells) {
        List<CellResults> out = new ArrayList<>();
        cells.forEach(c -> out.add(CellResults.of(c)));
        return out;
    }

    /** JMH's measurement time per iteration in seconds ("1 s", "500 ms"), from the file's run settings; NaN if absent. */
    public static double iterationSeconds(Path runOrFile) throws BenchException {
        Path file = RunLayout.resultOf(runOrFile);
        Object t = JmhJson.read(file).get(0).run().get("measurementTime");
        if (t == null) {
            return Double.NaN;
        }
        String[] parts = t.toString().trim().split("\\s+");
        double v = Double.parseDouble(parts[0]);
        return switch (parts.length > 1 ? parts[1] : "s") {
            case "ms" -> v / 1e3;
            case "us" -> v / 1e6;
            case "ns" -> v / 1e9;
            case "min" -> v * 60;
            default -> v;
        };
    }
}
