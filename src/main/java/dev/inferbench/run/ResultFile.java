package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.AtomicFile;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.results.jmh.MeasuredCell;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.WorkloadParams;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The run's merged result file ({@link RunLayout#RESULT}): every cell's landed forks merged as JMH merges its own,
 * written by JMH's writer, and read back as the one cell model.
 */
public final class ResultFile {
    private final RunLayout layout;
    private final ForkStore forks;
    private final Map<Cell, CellJson> jsonCache = new HashMap<>();

    ResultFile(RunLayout layout, ForkStore forks) {
        this.layout = layout;
        this.forks = forks;
    }

    /**
     * Rewrites the result file from everything landed; always a complete, valid JMH file, the bytes JMH's writer
     * gives for all the merged cells. Each cell's part is written by JMH's writer again only when the cell has a new
     * fork: writing every cell after every fork made a run's bookkeeping grow with the square of its forks.
     *
     * @return the merged result of each cell with a landed fork, in the order of {@code cells}
     */
    public List<RunResult> rebuild(List<Cell> cells) throws BenchException, IOException {
        List<RunResult> merged = new ArrayList<>();
        List<JmhEnvelope> parts = new ArrayList<>();
        for (Cell cell : cells) {
            Map<Integer, RunResult> landed = forks.landed(cell);
            if (landed.isEmpty()) {
                continue;
            }
            RunResult result = merge(landed.values());
            merged.add(result);
            CellJson json = jsonCache.get(cell);
            if (json == null || !json.forks().equals(landed.keySet())) {
                json = new CellJson(Set.copyOf(landed.keySet()), JmhEnvelope.of(JmhResultWriter.json(List.of(result))));
                jsonCache.put(cell, json);
            }
            parts.add(json.part());
        }
        // every part carries the same envelope: JMH's writer wraps each result alike
        String text = parts.isEmpty() ? JmhResultWriter.json(List.of())
                : parts.get(0).around(parts.stream().map(JmhEnvelope::body).toList());
        AtomicFile.write(layout.result(), text.getBytes(StandardCharsets.UTF_8));
        return merged;
    }

    /** One cell's part of the result file, and the fork numbers it was written from. */
    private record CellJson(Set<Integer> forks, JmhEnvelope part) {
    }

    /**
     * The cell's landed forks as the one cell model every reader uses (what the result file holds for the cell,
     * read by {@link JmhJson}), without writing the file; empty before its first fork lands.
     */
    public Optional<MeasuredCell> cell(Cell cell) throws BenchException {
        Map<Integer, RunResult> landed = forks.landed(cell);
        if (landed.isEmpty()) {
            return Optional.empty();
        }
        byte[] json = JmhResultWriter.json(List.of(merge(landed.values()))).getBytes(StandardCharsets.UTF_8);
        return JmhJson.read(new ByteArrayInputStream(json), forks.cellDir(cell).toString()).stream().findFirst();
    }

    /** Every cell of the result file as last written, in plan order, as reports and compare read them. */
    public List<MeasuredCell> read() throws BenchException {
        return JmhJson.read(layout.result());
    }

    static RunResult merge(Collection<RunResult> forks) {
        List<BenchmarkResult> results = new ArrayList<>();
        forks.forEach(f -> results.addAll(f.getBenchmarkResults()));
        BenchmarkParams p = forks.iterator().next().getParams();
        BenchmarkParams all = new BenchmarkParams(p.getBenchmark(), p.generatedBenchmark(), p.shouldSynchIterations(),
                p.getThreads(), p.getThreadGroups(), p.getThreadGroupLabels(), results.size(), p.getWarmupForks(),
                p.getWarmup(), p.getMeasurement(), p.getMode(), workload(p), p.getTimeUnit(), p.getOpsPerInvocation(),
                p.getJvm(), p.getJvmArgs(), p.getJdkVersion(), p.getVmName(), p.getVmVersion(), p.getJmhVersion(),
                p.getTimeout());
        return new RunResult(all, results);
    }

    private static WorkloadParams workload(BenchmarkParams p) {
        WorkloadParams w = new WorkloadParams();
        int order = 0;
        for (String k : p.getParamsKeys()) {
            w.put(k, p.getParam(k), order++);
        }
        return w;
    }
}
