package dev.inferbench.commits;

import dev.inferbench.BenchException;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.flow.CompareFlow;

import java.io.PrintStream;

/**
 * What a comparison of commits asks of its two run folders: after a pair, whether to stop ({@link StopAnswer}), and at
 * the end, compare's verdict as its exit code. {@link #COMPARE} is compare itself, in-process.
 */
public interface Verdicts {
    Verdicts COMPARE = new Verdicts() {
        @Override
        public StopAnswer stopAnswer(CompareFlow.Request request, int pilot, int maxPairs) throws BenchException {
            return CompareFlow.stopAnswer(request, pilot, maxPairs);
        }

        @Override
        public int compare(CompareFlow.Request request, PrintStream out, PrintStream err) throws BenchException {
            return new CompareFlow(out, err).compare(request).exitCode();
        }
    };

    StopAnswer stopAnswer(CompareFlow.Request request, int pilot, int maxPairs) throws BenchException;

    int compare(CompareFlow.Request request, PrintStream out, PrintStream err) throws BenchException;
}
