package dev.inferbench.results;

import dev.inferbench.stats.Direction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.inferbench.stats.Direction.HIGHER_IS_BETTER;
import static dev.inferbench.stats.Direction.LOWER_IS_BETTER;
import static dev.inferbench.stats.Direction.UNKNOWN;

/**
 * Every metric inferbench writes, once: name, unit, display unit, direction, how forks combine, whether the gate
 * takes it by default, and what it is. The summary, the reports, the exports, compare, the thresholds and the gate
 * read it; docs/metrics.md's metric table is held to it by a test. A metric it does not name (another profiler's, a
 * user's benchmark's) gets its direction from its unit ({@link #of}): compared by ratio only when that says nothing.
 */
public final class MetricCatalogue {
    private static final String TIME = "time/op";
    private static final String SHOWN = "s, ms, µs or ns";
    private static final String MIB = "MiB";
    private static final List<MetricEntry> ALL = new ArrayList<>();
    private static final Map<String, MetricEntry> BY_NAME = new HashMap<>();
    private static final List<MetricEntry> FAMILIES = new ArrayList<>();

    static {
        // the cell's own figures: the primary score and what the timed calls give
        m("time", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.MEAN).gated().speed().heading("mean")
                .is("the mean time per call of a time-mode cell (its all-calls mean where SampleTime sampled the calls)");
        m("trimmed", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.MEAN).speed()
                .is("compare's mean of the timed calls under 4x their fork's median call: the call without stalls of"
                        + " milliseconds, for cells of microseconds (--gate trimmed)");
        m("throughput", "ops/time", "ops/time", HIGHER_IS_BETTER, ForkRule.MEAN).gated().speed()
                .is("calls per unit of time of a thrpt cell");
        m("p<p>", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.CALLS).speed()
                .is("a percentile of the timed calls (the summary's: 50, 95, 99 or --percentiles); n/a with too few calls");
        m("min", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.CALLS).speed().is("the fastest timed call");
        m("max", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.CALLS).speed().is("the slowest timed call");
        m("sd", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.CALLS).speed()
                .is("the standard deviation of the timed calls, every fork's pooled (the spread, not the mean's error)");
        m("mean.all", TIME, SHOWN, LOWER_IS_BETTER, ForkRule.MEAN).speed()
                .is("SampleTime's mean over every call JMH counted: the iteration's window over its calls");
        m("samples", "samples/s", "samples/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.THROUGHPUT).heading("samples/s")
                .is("samples per second: calls times the batch over the time, every caller's together");
        m("latency.sample", "time/sample", "s, ms, µs or ns", LOWER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.LATENCY).heading("per sample")
                .is("the mean time per call over the batch: latency per sample");
        m("tokens", "tokens/s", "tokens/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.THROUGHPUT).heading("tokens/s")
                .is("samples/s times seqLen, for sequence models");
        m("gmacs", "GMAC/s", "GMAC/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.THROUGHPUT).is("the compute rate achieved");
        // memory
        m("mem.rss.peak", MIB, MIB, LOWER_IS_BETTER, ForkRule.MAX).in(MetricGroup.MEMORY).heading("rss peak")
                .is("the peak resident set while the measured iterations ran");
        m("mem.rss.peak.fork", MIB, MIB, LOWER_IS_BETTER, ForkRule.MAX).in(MetricGroup.MEMORY)
                .is("the fork's whole peak resident set, the model load and the reference model included");
        m("mem.rss.peak.load", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY)
                .is("the peak resident set while the model loaded");
        m("mem.native.model", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY).heading("model native")
                .is("the resident set's growth across the model load: what the engine holds for the model");
        m("mem.heap.used", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY).heading("heap")
                .is("Java heap in use at the end of each iteration");
        m("mem.rss", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY)
                .is("the resident set's time average over each measured iteration");
        m("mem.rss.growth", "MiB/10k calls", "MiB/10k calls", LOWER_IS_BETTER, ForkRule.LAST).in(MetricGroup.MEMORY)
                .is("how fast the resident set grew over the later half of the fork's measured calls");
        m("mem.rss.grown", MIB, MIB, LOWER_IS_BETTER, ForkRule.LAST).in(MetricGroup.MEMORY)
                .is("how much the resident set grew over the later half of the fork's measured calls");
        m("mem.rss.grown.early", MIB, MIB, LOWER_IS_BETTER, ForkRule.LAST).in(MetricGroup.MEMORY)
                .is("how much the resident set grew over the earlier half of the fork's measured calls");
        m("mem.activation.peak", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY)
                .is("the most memory the graph's intermediate tensors take at once, from shape inference");
        m("alloc.call", "B/op", "B/op", LOWER_IS_BETTER, ForkRule.MEAN).heading("alloc")
                .is("Java heap bytes each call allocates, from the calling thread's allocation counter");
        m("gc.alloc.rate", "MB/sec", "MiB/s", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.CPU)
                .is("JMH's gc profiler: the JVM's allocation rate (JMH's MB/sec are MiB/s)");
        m("gc.alloc.rate.norm", "B/op", "B/op", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.CPU)
                .is("JMH's gc profiler: everything the JVM allocated in the iteration over its calls");
        m("gc.count", "counts", "counts", UNKNOWN, ForkRule.MEAN)
                .in(MetricGroup.CPU).is("JMH's gc profiler: collections in the iteration");
        m("gc.time", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.CPU).is("JMH's gc profiler: time spent collecting");
        // startup
        m("load.time", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.STARTUP).heading("load")
                .is("model file to ready session, per fork, in the trial setup");
        m("first.inference", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.STARTUP).heading("first")
                .is("the first call after the load");
        m("coldstart.process", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.STARTUP).heading("process->first")
                .is("from the JVM's start to the first result of the fork");
        // the model
        m("model.params", "params", "params", UNKNOWN, ForkRule.MEAN)
                .in(MetricGroup.MODEL).is("the network's parameters");
        m("model.macs", "GMAC/sample", "GMAC/sample", UNKNOWN, ForkRule.MEAN)
                .in(MetricGroup.MODEL).is("the network's MACs per sample");
        m("model.size", MIB, MIB, UNKNOWN, ForkRule.MEAN)
                .in(MetricGroup.MODEL).is("the size of the model file the cell runs");
        m("model.tokens", "tokens/sample", "tokens/sample", UNKNOWN, ForkRule.MEAN).in(MetricGroup.MODEL)
                .is("the cell's seqLen, for models whose inputs take one");
        // quality
        m("fidelity.top1", "%", "%", HIGHER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.QUALITY)
                .is("top-1 agreement with ONNX Runtime fp32 on the same seeded samples");
        m("fidelity.maxabs", "abs", "abs", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.QUALITY)
                .is("the largest absolute difference from ONNX Runtime fp32's outputs");
        m("fidelity.cosine", "cos", "cos", HIGHER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.QUALITY)
                .is("the cosine similarity of the outputs to ONNX Runtime fp32's");
        m("fidelity.samples", "samples", "samples", UNKNOWN, ForkRule.MEAN).in(MetricGroup.QUALITY)
                .is("the samples the fidelity figures stand on");
        m("fidelity.tokens", "%", "%", HIGHER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.QUALITY)
                .is("a decoder's greedy tokens that agree with ONNX Runtime fp32's, both fed the reference's tokens");
        m("accuracy.top1", "%", "%", HIGHER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.QUALITY).is("top-1 accuracy on a labelled image folder");
        m("accuracy.top5", "%", "%", HIGHER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.QUALITY).is("top-5 accuracy on a labelled image folder");
        // CPU and I/O
        m("cpu.call", "ms/op", "ms/op", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.CPU).heading("cpu/call")
                .is("the serving side's CPU time per call, the load generator's taken out");
        m("cpu.cores", "cores", "cores", UNKNOWN, ForkRule.MEAN).in(MetricGroup.CPU).heading("cores")
                .is("CPU time over wall time: how many cores the cell kept busy");
        m("cpu.generator", "cores", "cores", UNKNOWN, ForkRule.MEAN).in(MetricGroup.CPU)
                .is("serving cells: the load generator's CPU time (the scheduler, idle callers' spins) over wall time");
        m("cpu.call.serving", "ms/op", "ms/op", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.CPU)
                .is("the CPU time per call of the threads that serve calls only (callers, the engine's pools)");
        m("cpu.call.wait", "ms/op", "ms/op", LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.CPU)
                .is("serving cells: the callers' CPU outside their calls");
        m("io.read", "MiB/s", "MiB/s", LOWER_IS_BETTER, ForkRule.MEAN).is("disk bytes the fork made storage read");
        m("io.write", "MiB/s", "MiB/s", LOWER_IS_BETTER, ForkRule.MEAN).is("disk bytes the fork made storage write");
        // the machine: read by the run's machine check, never compared
        m("machine.others", "cores", "cores", UNKNOWN, ForkRule.MEAN)
                .is("CPU time of everything else on the machine over wall time");
        m("machine.cpu", "cores", "cores", UNKNOWN, ForkRule.MEAN).is("this JVM's own CPU time over wall time");
        m("machine.switches", "1/s", "1/s", UNKNOWN, ForkRule.MEAN).is("involuntary context switches of this JVM");
        m("machine.canary", "ms", "ms", UNKNOWN, ForkRule.MEAN)
                .is("a fixed pure-Java kernel timed after each iteration: slower exactly when the machine is");
        // --tail: each fork's tail table, the fork so far after each measured iteration
        m("tail.p99", "ms", "ms", LOWER_IS_BETTER, ForkRule.LAST).in(MetricGroup.LATENCY)
                .is("--tail: the fork's 99th percentile of its calls, from its own count and slow calls");
        m("tail.calls", "calls", "calls", UNKNOWN, ForkRule.LAST)
                .is("--tail: the fork's calls above its p99, the calls the shares are of");
        m("tail.missed", "calls", "calls", LOWER_IS_BETTER, ForkRule.LAST)
                .is("--tail: calls above the fork's p99 that the recorder did not keep (0 unless its threshold lagged)");
        m("tail.<cause>", "%", "%", UNKNOWN, ForkRule.LAST)
                .is("--tail: of the calls above the fork's p99, the share whose main cause is gc, safepoint, wait,"
                        + " descheduled, deopt or compile, or that none explains (unexplained)");
        m("tail.top10.<cause>", "%", "%", UNKNOWN, ForkRule.LAST)
                .is("--tail: the same share of the fork's ten slowest calls");
        m("tail.without.<cause>", "ms", "ms", LOWER_IS_BETTER, ForkRule.LAST).in(MetricGroup.LATENCY)
                .is("--tail: the fork's p99 with the calls given that cause left out");
        m("tail.planted.hit", "%", "%", HIGHER_IS_BETTER, ForkRule.LAST)
                .is("--tail on a calibration's stub: of the calls a cause was planted in, the share given it");
        m("tail.unplanted.caused", "%", "%", LOWER_IS_BETTER, ForkRule.LAST)
                .is("--tail on a calibration's stub: of the fork's calls with nothing planted, the share given a main cause");
        // training
        m("train.mem.inference", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY)
                .is("peak of one forward pass without gradients");
        m("train.mem.forward", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY)
                .is("peak of the forward pass with gradients recorded, and the loss");
        m("train.mem.backward", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN).in(MetricGroup.MEMORY)
                .is("peak of the backward pass above what the forward left");
        m("train.mem.gradients", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.MEMORY).is("the gradients of every trained weight");
        m("train.mem.step", MIB, MIB, LOWER_IS_BETTER, ForkRule.MEAN)
                .in(MetricGroup.MEMORY).is("forward + backward: what a step needs");
        // generation
        m("gen.ttft", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).gated().speed()
                .is("time to first token, mean over the requests");
        m("gen.tpot", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).gated().speed()
                .is("time per output token after the first, mean over the requests");
        m("gen.ttft.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).speed()
                .is("a percentile of TTFT over the iteration's requests");
        m("gen.tpot.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).speed()
                .is("a percentile of TPOT over the iteration's requests");
        m("gen.itl.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).speed()
                .is("a percentile of the gaps between consecutive tokens, pooled over the requests");
        m("gen.e2e", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).speed().is("a request's end-to-end time, mean");
        m("gen.tokens.output", "tokens/s", "tokens/s", HIGHER_IS_BETTER, ForkRule.MEAN).is("output tokens per second");
        m("gen.tokens.total", "tokens/s", "tokens/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .is("prompt and output tokens per second");
        m("gen.kv.token", "B/token", "B/token", LOWER_IS_BETTER, ForkRule.MEAN).is("KV cache bytes per token");
        m("gen.prefill.share", "%", "%", UNKNOWN, ForkRule.MEAN).is("TTFT's share of the request's time");
        m("gen.decode.share", "%", "%", UNKNOWN, ForkRule.MEAN).is("the decode steps' share of the request's time");
        m("gen.choice", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).speed()
                .is("the token choice's (argmax or sampling) time per output token, inside TPOT");
        m("gen.prompt.p<p>", "tokens", "tokens", UNKNOWN, ForkRule.MEAN)
                .is("a percentile of the prompt tokens per sequence the iteration drew (a prompt file's, as encoded)");
        m("gen.prompt.max", "tokens", "tokens", UNKNOWN, ForkRule.MAX).is("the longest prompt the cell drew, in tokens");
        m("gen.output.p<p>", "tokens", "tokens", UNKNOWN, ForkRule.MEAN)
                .is("a percentile of the output tokens per sequence (to its end-of-sequence token or outputLen)");
        m("gen.output.max", "tokens", "tokens", UNKNOWN, ForkRule.MAX).is("the longest output the cell generated");
        // serving under load
        m("serve.rate", "req/s", "req/s", HIGHER_IS_BETTER, ForkRule.MEAN).is("requests served per second");
        m("serve.offered", "req/s", "req/s", UNKNOWN, ForkRule.MEAN).is("requests offered per second");
        m("serve.sustainable", "req/s", "req/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .is("the highest rate the fork's search found within the SLO");
        m("serve.failing", "req/s", "req/s", UNKNOWN, ForkRule.MEAN).is("the lowest rate the search saw fail");
        m("serve.ceiling", "ceiling", "ceiling", UNKNOWN, ForkRule.MEAN)
                .is("1 when the search's highest rate passed: a ceiling, not a knee");
        m("serve.nonmonotone", "pairs", "pairs", UNKNOWN, ForkRule.MEAN)
                .is("pairs of steps where a higher rate passed after a lower one failed");
        m("serve.steps", "steps", "steps", UNKNOWN, ForkRule.MEAN).is("the steps the rate search took");
        m("serve.limit.behind", "forks", "forks", UNKNOWN, ForkRule.MEAN)
                .is("1 when the rate above the knee was invalid because the callers fell behind");
        m("serve.limit.late", "forks", "forks", UNKNOWN, ForkRule.MEAN)
                .is("1 when the rate above the knee was invalid because arrivals were late");
        m("serve.batch", "requests/call", "requests/call", UNKNOWN, ForkRule.MEAN)
                .is("requests per engine call, with dynamic batching");
        m("serve.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN)
                .is("a percentile of the latency from each request's intended start");
        m("serve.max", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).is("the slowest request, from its intended start");
        m("serve.wait", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).is("the mean time a request waited for a caller");
        m("serve.compute", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN).is("the mean time of a request's call");
        m("serve.queue", "requests", "requests", LOWER_IS_BETTER, ForkRule.MEAN).is("the mean queue length");
        m("serve.queue.max", "requests", "requests", LOWER_IS_BETTER, ForkRule.MEAN).is("the longest queue");
        m("serve.late", "%", "%", LOWER_IS_BETTER, ForkRule.MEAN).is("requests issued later than their bound");
        m("serve.late.bound", "ms", "ms", UNKNOWN, ForkRule.MEAN).is("how late an arrival may be and count on time");
        m("serve.dropped", "%", "%", LOWER_IS_BETTER, ForkRule.MEAN).is("requests dropped");
        m("serve.valid", "valid", "valid", HIGHER_IS_BETTER, ForkRule.MEAN).is("1 when the step was valid");
        m("serve.invalid.late", "invalid", "invalid", LOWER_IS_BETTER, ForkRule.MEAN)
                .is("1 when the step was invalid because arrivals were late");
        m("serve.invalid.rate", "invalid", "invalid", LOWER_IS_BETTER, ForkRule.MEAN)
                .is("1 when the step was invalid because the callers fell behind");
        m("serve.slo", "met", "met", HIGHER_IS_BETTER, ForkRule.MEAN).is("1 when the step met the SLO");
        m("serve.slo.unsure", "unsure", "unsure", UNKNOWN, ForkRule.MEAN)
                .is("1 when the step's requests could not tell whether the SLO was met");
        m("serve.goodput", "req/s", "req/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .is("requests per second served within the SLO's bound");
        m("serve.ttft.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN)
                .is("streamed responses: a percentile of TTFT from the intended start");
        m("serve.tpot.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN)
                .is("streamed responses: a percentile of TPOT");
        m("serve.itl.p<p>", "ms", "ms", LOWER_IS_BETTER, ForkRule.MEAN)
                .is("streamed responses: a percentile of the gaps between tokens");
        m("serve.tokens.output", "tokens/s", "tokens/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .is("streamed responses: output tokens served per second");
        m("serve.tokens.user", "tokens/s", "tokens/s", HIGHER_IS_BETTER, ForkRule.MEAN)
                .is("streamed responses: output tokens per second per user, the mean over users");
    }

    private MetricCatalogue() {
    }

    /** Every metric the catalogue names, in its order. */
    public static List<MetricEntry> all() {
        return List.copyOf(ALL);
    }

    /** The metric's entry: by name, or a family's; else one made from its unit ({@link #unnamed}). */
    public static MetricEntry of(String name, String unit) {
        MetricEntry e = find(name);
        return e != null ? e : unnamed(name, unit);
    }

    /** The metric's entry, or null when the catalogue does not name it. */
    public static MetricEntry find(String name) {
        MetricEntry e = BY_NAME.get(name);
        if (e != null) {
            return e;
        }
        for (MetricEntry f : FAMILIES) {
            if (f.matches(name)) {
                return f;
            }
        }
        return null;
    }

    /** How the metric's forks combine; a metric the catalogue does not name is a mean of fork means. */
    public static ForkRule forkRule(String name) {
        MetricEntry e = find(name);
        return e == null ? ForkRule.MEAN : e.forks();
    }

    /**
     * A metric the catalogue does not name: a time per call is lower-is-better, a rate of calls or of anything but
     * bytes higher-is-better, anything else of unknown direction; its forks are a mean of fork means, not gated.
     */
    static MetricEntry unnamed(String name, String unit) {
        String u = unit == null ? "" : unit.toLowerCase(Locale.ROOT);
        Direction d = u.endsWith("/op") ? LOWER_IS_BETTER
                : u.startsWith("ops/") || u.endsWith("/s") && !u.startsWith("mb") && !u.startsWith("mib")
                ? HIGHER_IS_BETTER : UNKNOWN;
        boolean speed = u.matches("(ns|us|ms|s)/op") || u.matches("ops/(ns|us|ms|s|min|hr)");
        String shown = unit == null ? "" : unit;
        return new MetricEntry(name, shown, shown, d, ForkRule.MEAN, false, speed, name, groupOf(name), "");
    }

    /**
     * The group of a metric the catalogue does not name, by the prefix of its name: another quality, memory, model,
     * CPU or GC figure (JMH's gc profiler writes more than the catalogue names) sits with the catalogue's own.
     */
    private static MetricGroup groupOf(String name) {
        if (name.startsWith("fidelity.") || name.startsWith("accuracy.")) {
            return MetricGroup.QUALITY;
        }
        if (name.startsWith("mem.") || name.startsWith("train.mem.")) {
            return MetricGroup.MEMORY;
        }
        if (name.startsWith("model.")) {
            return MetricGroup.MODEL;
        }
        if (name.startsWith("cpu.") || name.startsWith("gc.")) {
            return MetricGroup.CPU;
        }
        return MetricGroup.OTHER;
    }

    private static Builder m(String name, String unit, String display, Direction direction, ForkRule forks) {
        return new Builder(name, unit, display, direction, forks);
    }

    private static final class Builder {
        private final String name;
        private final String unit;
        private final String display;
        private final Direction direction;
        private final ForkRule forks;
        private boolean gated;
        private boolean speed;
        private String heading;
        private MetricGroup group = MetricGroup.OTHER;

        Builder(String name, String unit, String display, Direction direction, ForkRule forks) {
            this.name = name;
            this.unit = unit;
            this.display = display;
            this.direction = direction;
            this.forks = forks;
            this.heading = name;
        }

        Builder gated() {
            gated = true;
            return this;
        }

        Builder speed() {
            speed = true;
            return this;
        }

        Builder in(MetricGroup g) {
            group = g;
            return this;
        }

        Builder heading(String h) {
            heading = h;
            return this;
        }

        void is(String description) {
            MetricEntry e = new MetricEntry(name, unit, display, direction, forks, gated, speed, heading, group,
                    description);
            ALL.add(e);
            if (e.family()) {
                FAMILIES.add(e);
            } else {
                BY_NAME.put(name, e);
            }
        }
    }
}
