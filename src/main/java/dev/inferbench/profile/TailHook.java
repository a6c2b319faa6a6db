package dev.inferbench.profile;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.RunLayout;
import dev.inferbench.run.ForkHook;
import dev.inferbench.tail.SlowCalls;
import dev.inferbench.tail.TailProfiler;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --tail}: every fork records its slow calls and a JFR recording of what can slow them ({@link TailProfiler}),
 * into {@code tail/<cell>/fork-N/} of the run folder. The fork's JVM arguments are those the other hooks gave it and
 * the folder's property.
 */
public final class TailHook implements ForkHook {
    private final RunLayout layout;

    private TailHook(RunLayout layout) {
        this.layout = layout;
    }

    public static TailHook create(Path runDir, PrintStream console) {
        RunLayout layout = RunLayout.of(runDir);
        console.println("[inferbench] --tail: each fork's slow calls and their causes (JFR: GC pauses, safepoints,"
                + " compilations, deoptimizations, waits; wall against CPU time) in " + layout.tail());
        return new TailHook(layout);
    }

    @Override
    public void beforeFork(Cell cell, int fork, Path forkDir, ChainedOptionsBuilder options) throws BenchException {
        Path dir = layout.tailFork(cell.id(), fork).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BenchException("cannot create " + dir + " for the slow calls of --tail: " + e.getMessage()
                    + "; expected a writable run folder", e);
        }
        options.addProfiler(TailProfiler.class);
        List<String> append = new ArrayList<>(options.build().getJvmArgsAppend().orElse(List.of()));
        append.add("-D" + SlowCalls.PROPERTY + "=" + dir);
        options.jvmArgsAppend(append.toArray(String[]::new));
    }
}
