package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.commits.CommitComparison;

/**
 * Where {@code bisect} and {@code power-ledger} get their comparison of commits: the jar's own
 * {@code compare-commits}, run in-process. Tests give one that answers without building.
 */
@FunctionalInterface
interface CommitsWiring {
    CommitComparison comparison() throws BenchException;

    static CommitsWiring production() {
        return () -> (args, out, err) -> new Main(out, err).run(args, new CompareCommitsCommand());
    }
}
