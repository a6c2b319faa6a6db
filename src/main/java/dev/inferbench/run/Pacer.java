package dev.inferbench.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Who says when the loop's next fork may start. {@link #FREE} never holds a fork back. {@link #lines} is
 * {@code --paced}: before each fork the loop prints {@value #READY} and waits for a line on its input; the end of
 * the input stops the run as {@code --max-forks} does (resumable, the summary and report written). An interleaved
 * A/B comparison keeps one such launcher per side running and lets each run one fork in turn, instead of starting a
 * launcher JVM, planning the run and writing its report for every fork (tools/compare-commits.sh).
 */
@FunctionalInterface
public interface Pacer {
    /** The line a paced loop prints when it waits for the go of its next fork. */
    String READY = "[inferbench] paced: ready for the next fork";

    Pacer FREE = () -> true;

    /** Whether the next fork may start (blocks until it is known); false stops the run here. */
    boolean next() throws IOException;

    /** Waits for a line on {@code in} before each fork, saying {@link #READY} on {@code out} first. */
    static Pacer lines(InputStream in, PrintStream out) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        return () -> {
            out.println(READY);
            out.flush();
            return reader.readLine() != null;
        };
    }
}
