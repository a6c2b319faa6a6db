package dev.inferbench.cli;

import dev.inferbench.BenchException;

import java.io.PrintStream;
import java.util.List;

/**
 * A command of the jar other than a benchmark run ({@code models}, {@code verify}, {@code report}, {@code compare},
 * {@code flame} ...). {@link Main} picks one by its first argument; anything else is JMH's command line.
 */
interface Subcommand {

    /** What every usage text starts with: the subcommand follows. */
    String USAGE_PREFIX = "usage: java -jar target/benchmarks.jar ";

    /** One line for the jar's help. */
    String summary();

    /** What {@code SUBCOMMAND --help} (or {@code -h}) prints: the usage line, what it does, each flag and its default. */
    String usage();

    /**
     * @param args the arguments after the subcommand's name
     * @return the exit code: 0 success, 1 a check failed (regression, disagreement), 2 bad input
     * @throws BenchException for bad input; Main prints its one line and exits 2
     */
    int run(List<String> args, PrintStream out, PrintStream err) throws BenchException;
}
