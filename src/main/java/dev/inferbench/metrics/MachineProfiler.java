package dev.inferbench.metrics;

import dev.inferbench.stats.Percentiles;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The state of the machine during each iteration, so that a slow phase of a shared machine shows in every cell's
 * forks at once instead of reading as a slower build:
 * <ul>
 *   <li>{@value #OTHERS} (cores): CPU time used by everything else on the machine (other processes, and a VM's
 *       steal time) over the iteration's wall time;</li>
 *   <li>{@value #CPU} (cores): this JVM's own CPU time over wall time (the engine's threads, spinning included);</li>
 *   <li>{@value #SWITCHES} (/s): involuntary context switches of this JVM, the scheduler taking its CPU away;</li>
 *   <li>{@value #CANARY} (ms): a fixed pure-Java kernel, the same in every fork of every cell, timed after the
 *       iteration, outside its measurement (the median of {@value #CANARY_RUNS} runs): it is slower exactly when the
 *       machine is.</li>
 * </ul>
 * Where /proc is missing the first three are left out.
 */
public final class MachineProfiler implements InternalProfiler {
    public static final String OTHERS = "machine.others";
    public static final String CPU = "machine.cpu";
    public static final String SWITCHES = "machine.switches";
    public static final String CANARY = "machine.canary";
    static final int CANARY_RUNS = 5;
    /** About 1 ms of work on this kind of machine once compiled. */
    private static final int CANARY_STEPS = 1_000_000;

    /**
     * A test aid: {@code -Dinferbench.canarySlowdown=P} makes this canary P % slower in the forks whose process id is
     * odd (about half of them, unpredictably), nothing else: a build whose in-fork canary misreads the machine, to
     * show that a comparison's disturbed pairs do not follow it (docs/statistics.md).
     */
    static final String CANARY_SLOWDOWN = "inferbench.canarySlowdown";
    private static final int STEPS = CANARY_STEPS + (int) (CANARY_STEPS / 100.0
            * (ProcessHandle.current().pid() % 2 == 1 ? Double.parseDouble(System.getProperty(CANARY_SLOWDOWN, "0")) : 0));

    /** Where the kernel's result goes, so that the JIT cannot drop the work. */
    private static volatile long sink;

    private ProcCounters start;

    @Override
    public String getDescription() {
        return "the machine during each iteration: other processes' CPU, this JVM's CPU, involuntary switches, canary";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        start = ProcCounters.read();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        ProcCounters end = ProcCounters.read();
        List<Result> out = new ArrayList<>();
        if (start != null) {
            add(out, OTHERS, end.othersCores(start), "cores");
            add(out, CPU, end.processCores(start), "cores");
            add(out, SWITCHES, end.involuntaryPerSecond(start), "1/s");
        }
        out.add(new ScalarResult(CANARY, canaryMillis(), "ms", AggregationPolicy.AVG));
        return out;
    }

    private static void add(List<Result> out, String label, double value, String unit) {
        if (!Double.isNaN(value)) {
            out.add(new ScalarResult(label, value, unit, AggregationPolicy.AVG));
        }
    }

    /** The median time of the fixed kernel, ms. */
    static double canaryMillis() {
        double[] ms = new double[CANARY_RUNS];
        for (int i = 0; i < CANARY_RUNS; i++) {
            long t0 = System.nanoTime();
            sink += kernel(STEPS);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        return Percentiles.median(ms);
    }

    /** A fixed, branch-free integer mix: the same instructions on every machine state. */
    static long kernel(int steps) {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < steps; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        return x;
    }
}
