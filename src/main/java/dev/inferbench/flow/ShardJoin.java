package dev.inferbench.flow;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.prepare.JmhOptions;
import dev.inferbench.report.SummaryTable;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.Fingerprint;
import dev.inferbench.results.RunFolder;
import dev.inferbench.results.Headline;
import dev.inferbench.results.RunLayout;
import dev.inferbench.run.Plan;
import dev.inferbench.run.ShardMerge;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The folders of a sharded run joined into one run folder ({@link ShardMerge}), then what the end of a run does for
 * it: the environment, the summary, what is missing or short of forks, and the history when the join is complete.
 */
public final class ShardJoin {
    private final PrintStream out;
    private final PrintStream err;
    /** Where the merged run goes and whose history it joins. */
    private final BenchConfig config;

    public ShardJoin(PrintStream out, PrintStream err, BenchConfig config) {
        this.out = out;
        this.err = err;
        this.config = config;
    }

    /**
     * @param target the merged run's folder, or null for a new one under the results root
     * @return whether the join is a finished run (no shard missing, no cell short of forks, something measured)
     */
    public boolean join(List<Path> dirs, Path target) throws BenchException {
        Path given = target;
        Path root = JmhOptions.resultsRoot(config);
        try {
            ShardMerge.Merged merged = ShardMerge.merge(dirs, () -> given != null ? given
                    : RunFolder.create(root, LocalDateTime.now(), "-merged"));
            target = merged.store().dir();
            copyEnvironment(dirs, target, out);
            Headline headline = Headline.ofFolder(target, merged.store().result().read());
            String table = SummaryTable.render(CellSummary.of(headline.cells()))
                    + headline.line().map(l -> l + "\n").orElse("");
            AtomicFile.write(target.resolve(RunLayout.SUMMARY), table.getBytes(StandardCharsets.UTF_8));
            out.print(table);
            if (!merged.missingShards().isEmpty()) {
                err.println("inferbench: shards missing from the merge: " + String.join(", ", merged.missingShards()));
            }
            // a shard stopped early (--max-forks, a budget, a kill) leaves cells short of forks: the merge is not a
            // finished run, so it is said, not filed in the history, and the exit code is not 0
            List<String> unfinished = new ArrayList<>();
            Plan whole = merged.store().plan();
            Map<Cell, String> failed = merged.store().failures().reasons(whole.runnableCells());
            for (Cell c : whole.runnableCells()) {
                int landed = merged.store().forks().landed(c).size();
                if (!failed.containsKey(c) && landed < whole.forks()) {
                    unfinished.add(c.label() + " (" + landed + " of " + whole.forks() + " forks)");
                }
            }
            if (!unfinished.isEmpty()) {
                err.println("inferbench: cells short of forks (continue their shard with --resume, then merge again): "
                        + String.join("; ", unfinished));
            }
            out.println("inferbench: merged " + dirs.size() + " folder" + (dirs.size() == 1 ? "" : "s") + " into " + target);
            boolean complete = merged.missingShards().isEmpty() && unfinished.isEmpty() && !merged.results().isEmpty();
            if (complete) {
                AfterRun.addToHistory(config, target, out, err); // the joined run is one point of a trend
            }
            return complete;
        } catch (IOException | UncheckedIOException e) {
            throw new BenchException("cannot merge into " + target + ": " + e.getMessage(), e);
        }
    }

    /**
     * The first given folder's environment.json into the merged run, so that its report shows the environment:
     * shards of one plan ran the same settings, but maybe not on the same CPU, which a line then says.
     */
    private static void copyEnvironment(List<Path> dirs, Path target, PrintStream out) throws IOException {
        Path first = null;
        Set<String> cpus = new LinkedHashSet<>();
        for (Path dir : dirs) {
            Path env = dir.resolve(RunLayout.ENVIRONMENT);
            if (Files.isRegularFile(env)) {
                first = first == null ? env : first;
                cpus.add(Fingerprint.cpuModel(env).orElse("unknown"));
            }
        }
        if (first == null) {
            return;
        }
        Files.copy(first, target.resolve(RunLayout.ENVIRONMENT), StandardCopyOption.REPLACE_EXISTING);
        if (cpus.size() > 1) {
            out.println("inferbench: the shards ran on different CPUs (" + String.join("; ", cpus)
                    + "); the merged run's environment.json is " + first);
        }
    }
}
