package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.flow.ShardJoin;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** {@code merge DIR... [--run-dir OUT]}: the folders of a sharded run joined into one run folder. */
final class MergeCommand implements Subcommand {
    private static final Options OPTIONS = new Options("merge", "DIR...")
            .row("DIR...", "the shards' run folders; folders of different plans are refused");
    private static final Options.Flag<Path> RUN_DIR = OPTIONS.value("--run-dir", "OUT",
            Options.FOLDER.expecting("a folder for the merged run"), null,
            "the merged run's folder (default: a new ...-merged folder under run.resultsDir)");
    private static final Options.Flag<Path> CONFIG = ConfigFlag.declare(OPTIONS);

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": join the run folders of --shard i/n runs of one plan into one";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("Joins the run folders of the --shard i/n runs of one plan into one run folder and prints"
                + " its summary.\n", """
                Exit 0 when every shard and every fork is there (the merged run joins the history), 1 when a shard is
                missing or cells are short of forks (continue their shard with --resume, then merge again), 2 bad input.
                """);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        List<Path> dirs = p.operands().stream().map(Path::of).toList();
        return new ShardJoin(out, err, ConfigFlag.load(p.get(CONFIG))).join(dirs, p.get(RUN_DIR)) ? ExitCode.OK
                : ExitCode.FAILED;
    }
}
