package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.profile.PassFrames;
import dev.inferbench.results.RunLayout;
import dev.inferbench.stats.ForkMeans;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The operator passes two run folders hold ({@code where/pair-N/}, written when compare-commits asks each
 * side's launcher between pairs), set pair for pair beside each gated row of a comparison: a {@link Where} per cell
 * whose passes both runs hold for at least {@value #MIN_PAIRS} pairs.
 */
public final class WhereRuns {
    /** The fewest pairs of passes an interval is drawn from (a t interval over 2 is wider than the figure). */
    public static final int MIN_PAIRS = 3;

    private WhereRuns() {
    }

    /** Per gated row's cell, its {@link Where}; empty for runs without passes (or given as JMH JSON files). */
    public static Map<CellKey, Where> of(Path baseRun, Path headRun, Comparer.Report report) throws BenchException {
        Map<Integer, List<OperatorPass.Profiled>> base = passes(baseRun);
        Map<Integer, List<OperatorPass.Profiled>> head = passes(headRun);
        RunLayout baseDir = RunLayout.of(baseRun);
        RunLayout headDir = RunLayout.of(headRun);
        Map<CellKey, Where> out = new LinkedHashMap<>();
        for (Comparison row : report.rows()) {
            if (!row.gated() || out.containsKey(row.cell())) {
                continue;
            }
            List<OperatorPass.Profiled> b = new ArrayList<>();
            List<OperatorPass.Profiled> h = new ArrayList<>();
            List<Path> bs = new ArrayList<>();
            List<Path> hs = new ArrayList<>();
            for (Map.Entry<Integer, List<OperatorPass.Profiled>> e : base.entrySet()) {
                Optional<OperatorPass.Profiled> pb = find(e.getValue(), row.cell());
                Optional<OperatorPass.Profiled> ph = find(head.getOrDefault(e.getKey(), List.of()), row.cell());
                if (pb.isPresent() && ph.isPresent()) {
                    b.add(pb.get());
                    h.add(ph.get());
                    stacks(baseDir, e.getKey(), pb.get()).ifPresent(bs::add);
                    stacks(headDir, e.getKey(), ph.get()).ifPresent(hs::add);
                }
            }
            if (b.size() >= MIN_PAIRS) {
                Where w = Where.of(b, h, ForkMeans.DEFAULT_CONFIDENCE);
                out.put(row.cell(), w.frames() == null ? w : w.withFrames(w.frames().withStacks(bs, hs)));
            }
        }
        return out;
    }

    /** The collapsed stacks a pass wrote beside its file, where they are there; a name with a folder is refused. */
    private static Optional<Path> stacks(RunLayout run, int pair, OperatorPass.Profiled p) {
        String name = p.frames() == null ? null : p.frames().stacks();
        if (name == null || !name.matches("[\\w.=,+-]{1,250}") || !name.endsWith(PassFrames.STACKS_SUFFIX)) {
            return Optional.empty();
        }
        Path f = run.wherePass(pair).resolve(p.frames().stacks());
        return Files.isRegularFile(f) ? Optional.of(f) : Optional.empty();
    }

    /** A pass of the cell: the same benchmark, and every param of the cell's key with the same value. */
    private static Optional<OperatorPass.Profiled> find(List<OperatorPass.Profiled> passes, CellKey cell) {
        return passes.stream().filter(p -> p.benchmark().equals(cell.benchmark())
                && p.params().entrySet().containsAll(cell.params().entrySet())).findFirst();
    }

    /** Pair number to that pair's passes, in pair order; empty without a where folder. */
    private static Map<Integer, List<OperatorPass.Profiled>> passes(Path run) throws BenchException {
        Map<Integer, List<OperatorPass.Profiled>> out = new TreeMap<>();
        Path dir = RunLayout.of(run).where();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p) && name.matches("pair-\\d{1,9}")) {
                    out.put(Integer.parseInt(name.substring(5)), OperatorPass.readAll(p));
                }
            }
        } catch (IOException e) {
            throw new BenchException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }
}
