package dev.inferbench.prepare;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.BenchException;
import dev.inferbench.profile.UserAsyncHook;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JMH options of a run's command line (everything inferbench's own flags leave), parsed by JMH and checked
 * before anything runs: a new run's and, from its plan, a resumed run's.
 */
public final class JmhArgs {
    private JmhArgs() {
    }

    /**
     * A run's JMH arguments, read once.
     *
     * @param given        as the user gave them
     * @param jmhArgs      what JMH parses: {@code given} less the user's {@code -prof async[:...]}
     * @param asyncOptions the options of that {@code -prof async}, run per fork; {@code null} when none
     */
    public record Parsed(List<String> given, List<String> jmhArgs, CommandLineOptions cmd, String asyncOptions) {
        /** The names of the {@code -p name=values} options, in order. */
        public List<String> paramNames() {
            List<String> names = new ArrayList<>();
            for (int i = 0; i + 1 < jmhArgs.size(); i++) {
                if (jmhArgs.get(i).equals("-p")) {
                    names.add(jmhArgs.get(i + 1).split("=", 2)[0].strip());
                }
            }
            return names;
        }
    }

    /** The user's {@code -prof async} taken apart from the rest, and the rest parsed by {@link #parse}. */
    public static Parsed read(List<String> given) throws BenchException {
        UserAsyncHook.Split split = UserAsyncHook.split(given);
        return new Parsed(List.copyOf(given), split.jmhArgs(), parse(split.jmhArgs()), split.asyncOptions());
    }

    /**
     * JMH's parse of {@code args}, with its errors as one line; a result or output file that could not be written
     * at the end is refused now.
     */
    private static CommandLineOptions parse(List<String> args) throws BenchException {
        CommandLineOptions cmd;
        try {
            cmd = new CommandLineOptions(args.toArray(String[]::new));
        } catch (CommandLineOptionException e) {
            throw new BenchException("bad command line: " + e.getMessage() + "; see -h for the options", e);
        } catch (IllegalStateException e) {
            // JMH's own parse of an unknown -bm mode ("Unable to parse benchmark mode: \"foo\"")
            throw new BenchException("bad command line: " + String.valueOf(e.getMessage()).lines().findFirst().orElse("")
                    + "; expected -bm thrpt, avgt, sample, ss or all", e);
        }
        if (cmd.getResultFormat().hasValue() && !cmd.getResult().hasValue()) {
            throw new BenchException("-rf " + cmd.getResultFormat().get() + " needs -rff FILE (a copy of the result in"
                    + " that format); without it the run folder holds jmh-result.json and report/report.csv already");
        }
        if (cmd.getThreads().hasValue() && cmd.getThreads().get() != 1) {
            // JMH's threads would share a model cell's one prepared input and its pinned outputs: calls would race
            throw new BenchException("-t " + cmd.getThreads().get() + " is not taken: concurrent callers are the '"
                    + CellSpec.CALLERS + "' parameter, which gives each caller its own input and outputs; expected e.g."
                    + " -p callers=" + Math.max(2, cmd.getThreads().get()) + " (and -p sharing=shared,per-caller)");
        }
        writableFile("-rff", cmd.getResult().orElse(null));
        writableFile("-o", cmd.getOutput().orElse(null));
        return cmd;
    }

    /** A file the run writes at its end must be possible before anything is measured, not found impossible after. */
    private static void writableFile(String flag, String file) throws BenchException {
        if (file == null) {
            return;
        }
        Path p = Path.of(file).toAbsolutePath();
        Path parent = p.getParent();
        if (Files.isDirectory(p) || parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
            throw new BenchException(flag + " " + file + " cannot be written (" + (Files.isDirectory(p) ? "it is a folder"
                    : "no writable folder " + parent) + "); expected a file in an existing, writable folder");
        }
    }
}
