package dev.inferbench.metrics;

import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import dev.inferbench.ByteUnits;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Memory of the fork, sampled after each iteration, outside the measured calls (one read of /proc/self/status and
 * one of the heap's usage: microseconds, between iterations):
 * <ul>
 *   <li>{@value #RSS_PEAK}: the fork's peak resident set (VmHWM), MiB; the largest across iterations and forks;</li>
 *   <li>{@value #NATIVE_MODEL}: RSS growth across the model load in the trial setup (see {@link SetupRecord}), MiB:
 *       what the engine holds for the loaded model, mostly native (weights, arenas), plus whatever else the JVM
 *       touched during the load;</li>
 *   <li>{@value #HEAP_USED}: Java heap in use at the end of the iteration, MiB (includes garbage not yet
 *       collected);</li>
 *   <li>{@value #RSS}: the resident set at the end of each measured iteration, averaged over the iterations and forks:
 *       the steady state beside the peak, MiB;</li>
 *   <li>{@value #RSS_GROWTH}: how much the resident set grew over each measured iteration per 10,000 of its calls,
 *       MiB, averaged over iterations ({@value #RSS_GROWN}: the growth per iteration, MiB): native memory that grows
 *       with calls (a leak) shows as a positive figure in every fork, a plateau as figures around 0. Long iterations
 *       ({@code -i 10 -r 10s}) give it calls enough to tell.</li>
 * </ul>
 * Not reported: GPU memory (no GPU build runs here; ORT's Java API has no query for it). Where /proc is missing
 * (not Linux) the RSS figures are left out.
 */
public final class MemoryProfiler implements InternalProfiler {
    public static final String RSS_PEAK = "mem.rss.peak";
    public static final String NATIVE_MODEL = "mem.native.model";
    public static final String HEAP_USED = "mem.heap.used";
    public static final String RSS = "mem.rss";
    public static final String RSS_GROWTH = "mem.rss.growth";
    /** The calls {@value #RSS_GROWTH} is given per. */
    static final double GROWTH_PER_CALLS = 10_000;

    public static final String RSS_GROWN = "mem.rss.grown";
    /** RSS (kB) at the start of the iteration. */
    private long rssBeforeKb = -1;
    public static final String MIB = ByteUnits.MIB;

    @Override
    public String getDescription() {
        return "peak RSS, native memory held after the model load, Java heap in use (MiB)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // read before and after each iteration only: nothing runs between the iteration's calls
        rssBeforeKb = ProcStatus.read().rssKb();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        List<Result> out = new ArrayList<>();
        ProcStatus status = ProcStatus.read();
        if (status.peakRssKb() >= 0) {
            out.add(new ScalarResult(RSS_PEAK, status.peakRssKb() / 1024.0, MIB, AggregationPolicy.MAX));
        }
        long model = SetupRecord.modelNativeKb();
        if (model != Long.MIN_VALUE) {
            out.add(new ScalarResult(NATIVE_MODEL, model / 1024.0, MIB, AggregationPolicy.AVG));
        }
        if (iterationParams.getType() == IterationType.MEASUREMENT && status.rssKb() >= 0) {
            out.add(new ScalarResult(RSS, status.rssKb() / 1024.0, MIB, AggregationPolicy.AVG));
            long calls = CpuProfiler.calls(benchmarkParams, result);
            if (rssBeforeKb >= 0 && calls > 0) {
                double grownMb = (status.rssKb() - rssBeforeKb) / 1024.0;
                out.add(new ScalarResult(RSS_GROWN, grownMb, MIB, AggregationPolicy.AVG));
                out.add(new ScalarResult(RSS_GROWTH, grownMb * GROWTH_PER_CALLS / calls, MIB + "/10k calls",
                        AggregationPolicy.AVG));
            }
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        out.add(new ScalarResult(HEAP_USED, heap / (1024.0 * 1024.0), MIB, AggregationPolicy.AVG));
        return out;
    }
}
