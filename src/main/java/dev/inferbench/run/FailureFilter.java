package dev.inferbench.run;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JMH's console output, with each failed cell's stack trace folded into one line (unless verbose), and the failures
 * remembered so the launcher can list them after the summary and exit non-zero.
 */
final class FailureFilter implements OutputFormat {
    /** Lines of a crashed fork's output tails kept for the failure record. */
    private static final int TAIL_LINES = 60;

    /** A cell that did not produce a result, and why. */
    public record Failure(String benchmark, Map<String, String> params, String reason) {
    }

    private static final String FAILURE_MARK = "<failure>";

    private final OutputFormat delegate;
    private final boolean verbose;
    private static final String CRASH_MARK = "<forked VM failed with exit code";

    /** By cell: JMH may report one cell's failure more than once (a setup error, then the fork's exit code). */
    private final Map<String, Failure> failures = new LinkedHashMap<>();
    private BenchmarkParams current;
    private List<String> captured;
    /** What JMH printed after a fork died: the fork's stdout/stderr tails. */
    private final List<String> crashTail = new ArrayList<>();
    private boolean afterCrash;

    FailureFilter(OutputFormat delegate, boolean verbose) {
        this.delegate = delegate;
        this.verbose = verbose;
    }

    List<Failure> failures() {
        finishCapture();
        return List.copyOf(failures.values());
    }

    @Override
    public void println(String s) {
        if (FAILURE_MARK.equals(s)) {
            finishCapture();
            captured = new ArrayList<>();
            delegate.println(s);
        } else if (s.startsWith(CRASH_MARK)) {
            // a fork that died (killed, native crash) prints no <failure>; its stdout/stderr tails follow as-is
            finishCapture();
            record(s.replaceAll("[<>]", ""));
            afterCrash = true;
            delegate.println(s);
        } else if (captured != null) {
            captured.add(s);
            if (verbose) {
                delegate.println(s);
            }
        } else {
            if (s.startsWith("# Run complete")) {
                afterCrash = false;
            }
            if (afterCrash && crashTail.size() < TAIL_LINES) {
                crashTail.add(s);
            }
            delegate.println(s);
        }
    }

    /** The output tails JMH printed after a fork died (empty when none died). */
    List<String> crashTail() {
        return List.copyOf(crashTail);
    }

    private void finishCapture() {
        if (captured == null) {
            return;
        }
        String reason = captured.stream().flatMap(String::lines).map(String::strip).filter(l -> !l.isEmpty()).findFirst()
                .map(FailureFilter::withoutClassName).orElse("failed with no message");
        captured = null;
        record(reason);
        if (!verbose) {
            delegate.println("  " + reason);
            delegate.println("  (run with --verbose for the stack trace)");
            delegate.println("");
        }
    }

    private void record(String reason) {
        Map<String, String> params = new TreeMap<>();
        String benchmark = "?";
        if (current != null) {
            benchmark = current.getBenchmark();
            current.getParamsKeys().forEach(k -> params.put(k, current.getParam(k)));
        }
        failures.putIfAbsent(benchmark + params, new Failure(benchmark, params, reason));
    }

    /** "dev.inferbench.bench.CellFailure: unknown device" becomes "unknown device". */
    static String withoutClassName(String line) {
        int colon = line.indexOf(": ");
        if (colon > 0 && line.substring(0, colon).matches("[\\w$.]+\\.[\\w$]+")) {
            return line.substring(colon + 2);
        }
        return line;
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        finishCapture();
        delegate.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration, IterationResult data) {
        delegate.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        finishCapture();
        afterCrash = false;
        current = benchParams;
        delegate.startBenchmark(benchParams);
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        finishCapture();
        delegate.endBenchmark(result);
    }

    @Override
    public void startRun() {
        delegate.startRun();
    }

    /**
     * JMH ends every run with its result table; the run loop runs one fork per JMH run, so the table is printed
     * once, for the merged result, by the loop and not here.
     */
    @Override
    public void endRun(Collection<RunResult> result) {
        finishCapture();
    }

    @Override
    public void print(String s) {
        if (captured == null || verbose) {
            delegate.print(s);
        }
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    /** JMH closes its output after every run; the console outlives the fork, so it is only flushed. */
    @Override
    public void close() {
        delegate.flush();
    }

    @Override
    public void verbosePrintln(String s) {
        delegate.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        delegate.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        delegate.write(b);
    }
}
