package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.commits.CommitComparison;
import dev.inferbench.commits.ThisJarComparison;

/**
 * Where {@code bisect} and {@code power-ledger} get their comparison of commits: resolved once, before anything runs,
 * so that a program that cannot compare is refused before it builds anything. Tests give one that answers without
 * building.
 */
@FunctionalInterface
interface CommitsWiring {
    String COMPARE_COMMITS = "compare-commits";

    CommitComparison comparison() throws BenchException;

    /**
     * The jar's own {@code compare-commits}, in a child JVM of this jar; the one line to change for an in-process
     * {@code new Main(out, err).run(...)} once that subcommand is the jar's.
     */
    static CommitsWiring production() {
        return () -> {
            ThisJarComparison jar = ThisJarComparison.locate();
            // without the subcommand the child would hand "compare-commits" to JMH as a benchmark filter
            if (!Main.SUBCOMMANDS.containsKey(COMPARE_COMMITS)) {
                throw new BenchException(COMPARE_COMMITS + " is not a subcommand of " + jar.jar() + "; expected a jar"
                        + " that has it (java -jar target/benchmarks.jar --help lists them)");
            }
            return jar;
        };
    }
}
