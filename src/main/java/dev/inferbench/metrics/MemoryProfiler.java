package dev.inferbench.metrics;

import dev.inferbench.ByteUnits;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.lang.management.ManagementFactory;

/**
 * Memory of the fork, in MiB, from Linux's /proc: the kernel's high-water mark reset at the start of each measured
 * iteration ({@link ResidentPeak}) and the resident set read every 20 ms while the iteration's calls run
 * ({@link RssSampler}); nothing is read between two calls but by the sampler's own thread.
 * <ul>
 *   <li>{@value #RSS_PEAK}: the peak resident set while the measured iterations ran (the model load, the fidelity
 *       probe's fp32 reference and the warm-up iterations are before it); largest over iterations and forks. Left out
 *       where the mark cannot be reset;</li>
 *   <li>{@value #RSS_PEAK_FORK}: the fork's peak from its start (the old meaning of {@value #RSS_PEAK}): the JVM, the
 *       model load's transient, the reference model;</li>
 *   <li>{@value #RSS_PEAK_LOAD}: the peak while the model loaded (from the file opened to a ready session);</li>
 *   <li>{@value #NATIVE_MODEL}: RSS growth across the model load in the trial setup (see {@link SetupRecord}): what the
 *       engine holds for the loaded model, mostly native (weights, arenas), plus whatever else the JVM touched;</li>
 *   <li>{@value #HEAP_USED}: Java heap in use at the end of the iteration (includes garbage not yet collected);</li>
 *   <li>{@value #RSS}: the resident set's time average over each measured iteration (from the sampler's readings),
 *       averaged over iterations and forks: the steady state beside the peak;</li>
 *   <li>{@value #RSS_GROWTH}: how fast the resident set grew over the later half of the fork's measured calls, MiB per
 *       10,000 calls ({@value #RSS_GROWN}: over that half, MiB; {@value #RSS_GROWN_EARLY}: over the earlier half), given
 *       after each measured iteration over the fork's calls so far, the last one the fork's ({@link ForkGrowth} says
 *       why halves). A leak grows in
 *       both halves of every fork; warm-up grows early and stops.</li>
 * </ul>
 * Not reported: GPU memory (no GPU build runs here; ORT's Java API has no query for it). Where /proc is missing
 * (not Linux) the RSS figures are left out.
 */
public final class MemoryProfiler extends FigureProfiler {
    public static final String RSS_PEAK = "mem.rss.peak";
    public static final String RSS_PEAK_FORK = "mem.rss.peak.fork";
    public static final String RSS_PEAK_LOAD = "mem.rss.peak.load";
    public static final String NATIVE_MODEL = "mem.native.model";
    public static final String HEAP_USED = "mem.heap.used";
    public static final String RSS = "mem.rss";
    public static final String RSS_GROWTH = "mem.rss.growth";
    public static final String RSS_GROWN = "mem.rss.grown";
    public static final String RSS_GROWN_EARLY = "mem.rss.grown.early";
    /** The calls {@value #RSS_GROWTH} is given per. */
    public static final double GROWTH_PER_CALLS = 10_000;
    public static final String MIB = ByteUnits.MIB;
    /** The forks' JVM property that sets the sampler's interval in ms (0: no sampler thread). */
    public static final String SAMPLE_PROPERTY = RssSampler.PROPERTY;
    public static final long MAX_SAMPLE_MS = RssSampler.MAX_INTERVAL_MS;

    /** The sampler's interval that {@code value} asks for, ms; -1 when it is not a whole number from 0 to the maximum. */
    public static long sampleIntervalMs(String value) {
        return RssSampler.intervalMs(value);
    }

    private final RssSampler sampler;
    private final ForkGrowth growth = new ForkGrowth();
    private boolean peakReset;

    public MemoryProfiler() {
        this(RssSampler.fromProperty());
    }

    MemoryProfiler(RssSampler sampler) {
        super("peak RSS of the measured iterations and of the fork, time-averaged RSS, its growth over calls, native"
                + " memory held after the model load, Java heap in use (MiB)");
        this.sampler = sampler;
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() == IterationType.MEASUREMENT) {
            peakReset = ResidentPeak.reset();
            sampler.start();
        }
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        ProcStatus status = ProcStatus.read();
        if (it.measured()) {
            RssSeries series = sampler.stop();
            if (peakReset && status.peakRssKb() >= 0) {
                out.max(RSS_PEAK, status.peakRssKb() / 1024.0, MIB);
            }
            if (!series.isEmpty()) {
                out.add(RSS, series.timeAverage(), MIB);
            }
            growth.add(series, CpuProfiler.calls(it.benchmark(), it.result()));
            addGrowth(out);
        }
        long fork = ResidentPeak.forkPeakKb(status.peakRssKb());
        if (fork >= 0) {
            out.max(RSS_PEAK_FORK, fork / 1024.0, MIB);
        }
        long load = SetupRecord.loadPeakKb();
        if (load >= 0) {
            out.add(RSS_PEAK_LOAD, load / 1024.0, MIB);
        }
        long model = SetupRecord.modelNativeKb();
        if (model != Long.MIN_VALUE) {
            out.add(NATIVE_MODEL, model / 1024.0, MIB);
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        out.add(HEAP_USED, heap / (1024.0 * 1024.0), MIB);
    }

    /**
     * The growth figures over the fork's measured calls so far, after every measured iteration: the last iteration's
     * are the fork's (the catalogue's fork rule for them takes each fork's last value). Every iteration gives them because JMH counts an iteration without a
     * figure as 0 in its score (given in the last only, the score was half the forks' mean on two iterations).
     */
    private void addGrowth(Figures out) {
        double late = growth.lateSlope();
        double early = growth.earlySlope();
        if (Double.isNaN(late) || Double.isNaN(early)) {
            return;
        }
        double half = growth.calls() / 2.0;
        out.add(RSS_GROWTH, late * GROWTH_PER_CALLS, MIB + "/10k calls")
                .add(RSS_GROWN, late * half, MIB)
                .add(RSS_GROWN_EARLY, early * half, MIB);
    }
}
