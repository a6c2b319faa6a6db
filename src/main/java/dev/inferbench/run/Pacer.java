package dev.inferbench.run;

import dev.inferbench.BenchException;

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
 * launcher JVM, planning the run and writing its report for every fork (compare-commits).
 *
 * <p>A paced loop writes the run's merged result only when its input asks ({@value #WRITE}) and at its end, not
 * after every fork: JMH's writer takes longer the more forks a cell has, and after a fork of one side that time was
 * spent before the other side's fork of the pair could start, so the pair's two forks drifted apart as the comparison
 * grew, late pairs by as long as a short fork (docs/evidence/fork-cost.md).
 */
public interface Pacer {
    /** The line a paced loop prints when it waits for the go of its next fork. */
    String READY = "[inferbench] paced: ready for the next fork";
    /** The input line that has a paced loop write the run's merged result now (then it says {@link #READY} again). */
    String WRITE = "write-result";
    /**
     * The input line that has a paced loop run its operator pass now, {@code operator-pass N} for pair N (then it
     * says {@link #READY} again); a loop given no pass says so in one line and waits again.
     */
    String PASS = "operator-pass";
    /**
     * The version of this exchange, announced once before the first {@link #READY} as {@link #PROTOCOL}: 1 was a go
     * line per fork with the result written after every fork, 2 added {@link #WRITE}, 3 announces itself, 4 added
     * {@link #PASS}. A driver of two builds (compare-commits) drives each side the way its version asks, and refuses
     * a version it does not know instead of running it out of step.
     */
    int VERSION = 4;
    /** The announcement; a loop older than version 3 does not print it. */
    String PROTOCOL = "[inferbench] paced: protocol " + VERSION;

    Pacer FREE = writeResult -> true;

    /** Whether the next fork may start (blocks until it is known); false stops the run here. */
    boolean next(ResultWriter writeResult) throws IOException, BenchException;

    /** Whether the loop writes the merged result only when {@link #next} asks and at its end (else after each fork). */
    default boolean writesOnRequest() {
        return false;
    }

    /** This pacer, running {@code pass} when its input asks ({@link #PASS}); a pacer without input ignores it. */
    default Pacer withPass(Pass pass) {
        return this;
    }

    /** A profiled pass of the run's cells between two forks, numbered by the driver's pair. */
    @FunctionalInterface
    interface Pass {
        void run(int pair) throws IOException, BenchException;
    }

    /** Writes the run's merged result from every fork landed so far. */
    @FunctionalInterface
    interface ResultWriter {
        void write() throws IOException, BenchException;
    }

    /**
     * Waits for a line on {@code in} before each fork, saying {@link #READY} on {@code out} first; a {@link #WRITE}
     * line writes the merged result and waits again, a {@link #PASS} line runs the pass and waits again.
     */
    static Pacer lines(InputStream in, PrintStream out) {
        return new Lines(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), out, null);
    }

    /** {@link #lines}: one reader for the whole run, whichever pass it was given. */
    final class Lines implements Pacer {
        private final BufferedReader reader;
        private final PrintStream out;
        private final Pass pass;
        private boolean announced;

        private Lines(BufferedReader reader, PrintStream out, Pass pass) {
            this.reader = reader;
            this.out = out;
            this.pass = pass;
        }

        @Override
        public boolean next(ResultWriter writeResult) throws IOException, BenchException {
            if (!announced) {
                out.println(PROTOCOL);
                announced = true;
            }
            while (true) {
                out.println(READY);
                out.flush();
                String line = reader.readLine();
                if (line == null) {
                    return false;
                }
                String l = line.strip();
                if (l.equals(WRITE)) {
                    writeResult.write();
                } else if (l.startsWith(PASS + " ")) {
                    runPass(l.substring(PASS.length()).strip());
                } else {
                    return true;
                }
            }
        }

        private void runPass(String pair) throws IOException, BenchException {
            int n;
            try {
                n = Integer.parseInt(pair);
            } catch (NumberFormatException e) {
                throw new BenchException("paced input '" + PASS + " " + pair + "' names no pair; expected '" + PASS
                        + " N' with N a whole number");
            }
            if (pass == null) {
                out.println("[inferbench] paced: no operator pass in this run");
            } else {
                pass.run(n);
            }
        }

        @Override
        public boolean writesOnRequest() {
            return true;
        }

        @Override
        public Pacer withPass(Pass p) {
            return new Lines(reader, out, p);
        }
    }
}
