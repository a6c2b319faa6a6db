package dev.inferbench.cli;

import dev.inferbench.flow.AfterRun;

import java.util.Map;
import dev.inferbench.run.Plan;
import dev.inferbench.cell.Cell;
import dev.inferbench.prepare.JmhOptions;
import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.report.SummaryTable;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.Fingerprint;
import dev.inferbench.results.RunFolder;
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
import java.util.Set;

/** {@code merge DIR... [--run-dir OUT]}: the folders of a sharded run joined into one run folder. */
final class MergeCommand implements Subcommand {

    @Override
    public String summary() {
        return "merge DIR... [--run-dir OUT]: join the run folders of --shard i/n runs of one plan into one";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<Path> dirs = new ArrayList<>();
        Path target = null;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--run-dir")) {
                if (i + 1 >= args.size()) {
                    throw new BenchException("--run-dir needs a value; expected a folder for the merged run");
                }
                target = Path.of(args.get(++i));
            } else if (args.get(i).startsWith("-")) {
                throw new BenchException("unknown option '" + args.get(i) + "' for merge; expected run folders and --run-dir OUT");
            } else {
                dirs.add(Path.of(args.get(i)));
            }
        }
        Path given = target;
        Path root = JmhOptions.resultsRoot(BenchConfig.load());
        try {
            ShardMerge.Merged merged = ShardMerge.merge(dirs, () -> given != null ? given
                    : RunFolder.create(root, LocalDateTime.now(), "-merged"));
            target = merged.store().dir();
            copyEnvironment(dirs, target, out);
            String table = SummaryTable.render(CellSummary.of(merged.store().result().read()));
            Files.writeString(target.resolve(RunLayout.SUMMARY), table, StandardCharsets.UTF_8);
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
                AfterRun.addToHistory(BenchConfig.load(), target, out, err); // the joined run is one point of a trend
            }
            return complete ? Main.OK : Main.CELLS_FAILED;
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
