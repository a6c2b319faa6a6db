package dev.inferbench.commits;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A comparison run as a program of its own under a wrapper the user names ({@code power-ledger --each CMD}): the
 * wrapper, then this JVM's java with {@code -jar JAR compare-commits ARGS}. A wrapper such as a lock on a shared
 * machine ({@code flock /tmp/cpu.lock}) then holds the machine for one comparison at a time, letting other
 * measurements in between, where one around the whole proof would hold it for hours. The wrapper is the user's
 * command line, never read from a file.
 */
public record WrappedComparison(List<String> wrapper, String java, Path jar) implements CommitComparison {
    public WrappedComparison {
        wrapper = List.copyOf(wrapper);
    }

    /** The java of this JVM. */
    public static WrappedComparison of(List<String> wrapper, Path jar) {
        return new WrappedComparison(wrapper, Path.of(System.getProperty("java.home"), "bin", "java").toString(), jar);
    }

    List<String> command(List<String> args) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of(java, "-jar", jar.toString(), "compare-commits"));
        cmd.addAll(args);
        return cmd;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<String> cmd = command(args);
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            try (InputStream in = p.getInputStream()) {
                in.transferTo(out);
            }
            return p.waitFor();
        } catch (IOException e) {
            throw new BenchException("cannot run --each '" + wrapper.get(0) + "' (" + e.getMessage()
                    + "); expected a program on the PATH", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while a comparison ran", e);
        }
    }
}
