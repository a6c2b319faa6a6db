package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.flow.ShardJoin;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code merge DIR... [--run-dir OUT]}: the folders of a sharded run joined into one run folder. */
final class MergeCommand implements Subcommand {

    @Override
    public String summary() {
        return "merge DIR... [--run-dir OUT]: join the run folders of --shard i/n runs of one plan into one";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                merge DIR... [--run-dir OUT]
                Joins the run folders of the --shard i/n runs of one plan into one run folder and prints its summary.
                  DIR...          the shards' run folders; folders of different plans are refused
                  --run-dir OUT   the merged run's folder (default: a new ...-merged folder under run.resultsDir)
                Exit 0 when every shard and every fork is there (the merged run joins the history), 1 when a shard is
                missing or cells are short of forks (continue their shard with --resume, then merge again), 2 bad input.
                """;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<Path> dirs = new ArrayList<>();
        Path target = null;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--run-dir")) {
                target = Path.of(FlagValue.of(args, ++i, "--run-dir", "a folder for the merged run"));
            } else if (args.get(i).startsWith("-")) {
                throw new BenchException("unknown option '" + args.get(i) + "' for merge; expected run folders and --run-dir OUT");
            } else {
                dirs.add(Path.of(args.get(i)));
            }
        }
        return new ShardJoin(out, err).join(dirs, target) ? ExitCode.OK : ExitCode.FAILED;
    }
}
