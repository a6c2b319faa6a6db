package dev.inferbench.run;

import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Optional;

/**
 * Where a run's lines go. inferbench's own lines (the plan, one per fork, the summary, the notes, the closing lines)
 * always go to the terminal. JMH's per-iteration log goes to the run folder's {@code jmh.log}; by default
 * ({@link #quiet()}) nowhere else, so that a run fits a screen or two. With JMH's own {@code -v NORMAL} or
 * {@code -v EXTRA}, or with {@code --verbose}, the terminal shows it as well; with {@code -v SILENT} JMH writes
 * nothing at all.
 *
 * @param terminal the terminal (or the {@code -o} file)
 * @param log      the run folder's jmh.log; a null stream when nothing is kept
 * @param jmh      the verbosity JMH writes at
 * @param quiet    JMH's log stays out of the terminal
 * @param verbose  {@code --verbose}: stack traces of failed cells in full
 */
public record RunConsole(PrintStream terminal, PrintStream log, VerboseMode jmh, boolean quiet, boolean verbose) {
    /** The file name of JMH's log in the run folder. */
    public static final String JMH_LOG = "jmh.log";

    /**
     * The console a command line asks for: {@code asked} is JMH's {@code -v} when given. Without it, and without
     * {@code --verbose}, the run is quiet.
     */
    public static RunConsole of(PrintStream terminal, PrintStream log, Optional<VerboseMode> asked, boolean verbose) {
        boolean quiet = asked.isEmpty() && !verbose;
        return new RunConsole(terminal, log, asked.orElse(VerboseMode.NORMAL), quiet, verbose);
    }

    /** Everything to the terminal at JMH's verbosity, no log: what tests and embedded runs use. */
    public static RunConsole plain(PrintStream terminal, VerboseMode jmh) {
        return new RunConsole(terminal, new PrintStream(OutputStream.nullOutputStream()), jmh, false, false);
    }

    /** JMH's lines reach the terminal. */
    public boolean showsJmh() {
        return !quiet && jmh != VerboseMode.SILENT;
    }
}
