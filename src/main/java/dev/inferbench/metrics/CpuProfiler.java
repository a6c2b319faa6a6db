package dev.inferbench.metrics;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.IterationResult;

import java.lang.management.ManagementFactory;

/**
 * What an inference costs in CPU, beside what it costs in time: the process's CPU time over each measured iteration
 * (every thread of the JVM: the callers, the engine's pools, spinning included, and the JVM's own GC and compiler
 * threads, which a service pays too), less the load generator's (an open-loop step's arrival scheduler, which a
 * service does not run: {@link #GENERATOR_CPU}), as
 * <ul>
 *   <li>{@value #PER_CALL} (ms/op): the serving side's CPU time per call, over every call the iteration counted (all
 *       callers);</li>
 *   <li>{@value #CORES} (cores): the serving side's CPU time over wall time, how many cores the cell kept busy;</li>
 *   <li>{@value #GENERATOR} (cores): the load generator's CPU time over wall time, given when it ran;</li>
 *   <li>{@value #SERVING} (ms/op): the CPU time of the threads that serve calls, per call: the callers and the
 *       engine's own threads ({@link ServingThreads}), without the JVM's compiler and GC threads and JMH's, measured
 *       the same way in a closed and an open loop; given where the benchmark names its callers;</li>
 *   <li>{@value #WAIT} (ms/op): of that, the callers' CPU outside their calls, per call (waiting for requests,
 *       taking them from the queue, waking up): given where the callers mark their calls (the open loop).</li>
 * </ul>
 * Calls are those JMH counted, or, for a benchmark that makes its own calls inside one invocation (the open-loop
 * serving steps), those it reported through {@link #CALLS}. The CPU clock is the JVM's process CPU time in ns.
 */
public final class CpuProfiler extends FigureProfiler {
    public static final String PER_CALL = "cpu.call";
    public static final String CORES = "cpu.cores";
    public static final String GENERATOR = "cpu.generator";
    public static final String SERVING = "cpu.call.serving";
    public static final String WAIT = "cpu.call.wait";

    /**
     * Calls made inside one benchmark invocation, for benchmarks that make many of their own (an open-loop serving
     * step is one invocation of thousands of requests): the per-call figures divide by this count when it was set
     * during the iteration, by JMH's count of invocations otherwise.
     */
    public static final Handoff.Tally CALLS = new Handoff.Tally();
    /**
     * CPU time in ns the load generator spent in the iteration (an open-loop step's arrival scheduler: it sleeps and
     * spins to each arrival's time), added by the thread that ran it. It is taken out of the process's CPU so that CPU
     * per request is the serving side's (callers, engine, JVM), and given as a figure of its own: at 10,000 req/s the
     * scheduler's spinning alone is a good part of a core.
     */
    public static final Handoff.Tally GENERATOR_CPU = new Handoff.Tally();

    private long cpuStart;
    private long wallStart;

    public CpuProfiler() {
        super("process CPU time per call (ms/op) and cores busy (CPU time / wall time) per iteration");
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        CALLS.reset();
        GENERATOR_CPU.reset();
        ServingThreads.reset();
        cpuStart = processCpuNanos();
        wallStart = System.nanoTime();
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        long generator = GENERATOR_CPU.sum();
        ServingThreads.Cpu serving = ServingThreads.counted();
        long cpu = processCpuNanos() - cpuStart - generator;
        long wall = System.nanoTime() - wallStart;
        if (cpuStart < 0 || cpu < 0 || wall <= 0) {
            return; // no process CPU clock on this JVM
        }
        out.add(CORES, cpu / (double) wall, "cores");
        if (generator > 0) {
            out.add(GENERATOR, generator / (double) wall, "cores");
        }
        long calls = calls(it.benchmark(), it.result());
        if (calls > 0) {
            out.add(PER_CALL, cpu / 1e6 / calls, "ms/op");
            if (serving != null) {
                out.add(SERVING, serving.serving() / 1e6 / calls, "ms/op");
                if (serving.inside() >= 0) {
                    out.add(WAIT, Math.max(0, serving.callers() - serving.inside()) / 1e6 / calls, "ms/op");
                }
            }
        }
    }

    /** The iteration's calls: those a benchmark reported itself, else JMH's count; 0 for a single timed call. */
    static long calls(BenchmarkParams benchmarkParams, IterationResult result) {
        long own = CALLS.sum();
        if (own > 0) {
            return own;
        }
        if (result.getMetadata() == null || benchmarkParams.getMode() == Mode.SingleShotTime) {
            return 0; // one invocation timed whole: its CPU is the setup's as much as a call's
        }
        return result.getMetadata().getMeasuredOps();
    }

    /** The JVM's CPU time in ns, all threads; -1 where the platform does not give it. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
