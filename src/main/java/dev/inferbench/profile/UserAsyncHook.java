package dev.inferbench.profile;

import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.run.ForkHook;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * {@code -prof async[:options]} as the user wrote it, run fork by fork: JMH's async profiler with the user's own
 * options (output format, event, interval, ...), {@code libPath} from our cache unless given, and each fork its own
 * folder, {@code <dir>/<cell>/fork-N}, where {@code <dir>} is the user's {@code dir=} or the run's {@code flames/}.
 * Plain JMH 1.37 gives all forks of a cell the same folder, so each fork's output overwrites the last.
 */
public final class UserAsyncHook implements ForkHook {
    private final String options;
    private final Path root;
    private final Path library;
    private final List<String> jvmArgsAppend;

    private UserAsyncHook(String options, Path root, Path library, List<String> jvmArgsAppend) {
        this.options = options;
        this.root = root;
        this.library = library;
        this.jvmArgsAppend = jvmArgsAppend;
    }

    /** JMH's arguments without {@code -prof async[:...]}, and the user's async options ({@code null}: none given). */
    public record Split(List<String> jmhArgs, String asyncOptions) {
    }

    public static Split split(List<String> args) {
        List<String> rest = new ArrayList<>();
        String async = null;
        for (int i = 0; i < args.size(); i++) {
            String v = i + 1 < args.size() ? args.get(i + 1) : "";
            if (args.get(i).equals("-prof") && (v.equals("async") || v.startsWith("async:"))) {
                async = v.equals("async") ? "" : v.substring("async:".length());
                i++;
            } else {
                rest.add(args.get(i));
            }
        }
        return new Split(rest, async);
    }

    /** Extracts async-profiler and ONNX Runtime's libraries (once per machine) before the first fork. */
    public static UserAsyncHook create(String asyncOptions, Path runDir, Options base, PrintStream console)
            throws BenchException {
        Path root = runDir.resolve(RunLayout.FLAMES);
        Path library = null;
        StringJoiner kept = new StringJoiner(";");
        for (String option : asyncOptions.split(";")) {
            if (option.startsWith("dir=")) {
                root = Path.of(option.substring("dir=".length()));
            } else if (option.startsWith("libPath=")) {
                library = Path.of(option.substring("libPath=".length()));
            } else if (!option.isBlank()) {
                kept.add(option);
            }
        }
        if (library == null) {
            library = FlameHook.profilerLibrary();
        }
        List<String> append = FlameHook.keepOrtLibraries(base);
        console.println("[inferbench] -prof async" + (kept.length() == 0 ? "" : ":" + kept) + " for every fork, each in "
                + root.resolve("<cell>").resolve("fork-N"));
        return new UserAsyncHook(kept.toString(), root, library, append);
    }

    @Override
    public void beforeFork(Cell cell, int fork, Path forkDir, ChainedOptionsBuilder builder) throws BenchException {
        Path dir = root.resolve(cell.id()).resolve("fork-" + fork);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchException("cannot create " + dir + " for -prof async: " + e.getMessage()
                    + "; expected a writable dir=", e);
        }
        builder.addProfiler(ForkAsync.class, (options.isEmpty() ? "" : options + ";") + "libPath=" + library + ";dir=" + dir);
        builder.jvmArgsAppend(jvmArgsAppend.toArray(String[]::new));
    }
}
