package dev.inferbench.run;

import dev.inferbench.BenchException;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;

/** The one place that drives JMH's {@link Runner}: listings, the benchmark catalogue, and one fork at a time. */
public final class JmhDriver {
    private JmhDriver() {
    }

    /** JMH's own {@code -l}, {@code -lp} (listing the parameters of {@code withParams}), {@code -lprof}, {@code -lrf}. */
    public static void list(CommandLineOptions cmd, CommandLineOptions withParams) throws BenchException {
        try {
            if (cmd.shouldList()) {
                new Runner(cmd).list();
            } else if (cmd.shouldListWithParams()) {
                new Runner(cmd).listWithParams(withParams);
            } else if (cmd.shouldListProfilers()) {
                cmd.listProfilers();
            } else {
                cmd.listResultFormats();
            }
        } catch (RuntimeException e) {
            throw new BenchException("cannot list benchmarks: " + OneLine.of(e), e);
        }
    }

    /** The benchmarks the options' include/exclude patterns select, from the jar's benchmark list. */
    public static SortedSet<BenchmarkListEntry> benchmarks(Options options) throws BenchException {
        SortedSet<BenchmarkListEntry> found = select(options.getIncludes(), options.getExcludes());
        if (found.isEmpty()) {
            throw new BenchException("no benchmark matches " + options.getIncludes() + "; see -l for the list");
        }
        return found;
    }

    /**
     * The benchmarks that JMH's include/exclude regexps select from the jar's benchmark list; empty when none does.
     * An unreadable benchmark list (a build without the annotation processor) is JMH's RuntimeException.
     */
    public static SortedSet<BenchmarkListEntry> select(List<String> includes, List<String> excludes) {
        OutputFormat quiet = OutputFormatFactory.createFormatInstance(new PrintStream(OutputStream.nullOutputStream()),
                VerboseMode.SILENT);
        return BenchmarkList.defaultList().find(quiet, includes, excludes);
    }

    /** JMH's machine-wide lock is held by another JMH run: no fork may start now. */
    static final class LockBusy extends Exception {
        private static final long serialVersionUID = 1L;

        LockBusy(RunnerException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * Runs what {@code options} select (one fork of one cell, as the loop builds them). Empty when the fork
     * produced no result: the output format has recorded why.
     */
    static Optional<RunResult> runFork(Options options, OutputFormat output) throws BenchException, LockBusy {
        try {
            Collection<RunResult> results = new Runner(options, output).run();
            return results.stream().findFirst();
        } catch (NoBenchmarksException e) {
            throw new BenchException("no benchmark matches " + options.getIncludes() + "; see -l for the list", e);
        } catch (RunnerException e) {
            if (String.valueOf(e.getMessage()).contains("Another JMH instance might be running")) {
                // JMH refuses to measure while another JMH run holds its machine-wide lock; that is no cell's fault
                throw new LockBusy(e);
            }
            output.println("<forked VM failed with exit code ?>");
            output.println(OneLine.of(e));
            return Optional.empty();
        }
    }
}
