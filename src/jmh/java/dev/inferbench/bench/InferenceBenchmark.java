package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.plant.BusyNeighbour;
import dev.inferbench.plant.InjectedSlowdown;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Outputs;
import dev.inferbench.metrics.ServingThreads;
import dev.inferbench.tail.SlowCalls;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.IterationParams;

import java.util.concurrent.TimeUnit;

/**
 * The latency of one inference call: a batch of seeded synthetic inputs, prepared once as engine tensors, run
 * through one model on one engine and device. Everything but the call itself (loading, input creation, a
 * correctness check of the outputs, the fidelity of the cell's outputs to the fp32 reference) happens in the trial
 * setup, outside the measurement.
 *
 * <p>The matrix is the cross product of the parameters below and those of {@link CallerParams}; benchmarks.properties
 * holds the defaults the inferbench launcher passes, and {@code -p name=v1,v2} on the command line overrides them.
 */
// SampleTime: calls are timed (all of them while they are long, a sample when short), so the JSON carries
// p50/p90/p95/p99/p99.9, not only a mean; the mean over every call is CallMeanProfiler's mean.all.
@BenchmarkMode(Mode.SampleTime)
// Milliseconds: inference calls take 0.01 ms (tiny MLP) to seconds (large batches); ms reads well across that range.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class InferenceBenchmark extends CallerParams {

    /** Inter-op threads (ORT's parallel executor, libtorch's inter-op pool); 0 keeps the engine's default. */
    @Param("0")
    public int interOpThreads;

    /** ONNX Runtime graph optimization level: all, extended, basic, none. ort and djl-ort; djl-pytorch ignores it. */
    @Param("all")
    public String optLevel;

    /**
     * fp32 (the model file as is), fp16 or int8: a variant made from the fp32 file before JMH starts. Every cell
     * records its fidelity to ONNX Runtime fp32 on the CPU (fidelity.top1, fidelity.maxabs, fidelity.cosine).
     */
    @Param("fp32")
    public String precision;

    /**
     * Where the input batch comes from: synthetic (seeded), or a path: an ONNX test set, a .npy file or folder of
     * them, an image folder with one sub-folder per class (then accuracy.top1/top5 are recorded too).
     */
    @Param("synthetic")
    public String data;


    private Callers callers;
    private final DuetBarrier duet = DuetBarrier.fromProperty();

    /**
     * A caller's own prepared input and outputs (and engine, with sharing=per-caller), one per JMH thread: the fork
     * runs the cell's {@code callers} threads, so N callers call the model at once, as a service's request threads
     * would. With one caller it is the cell's one input, as it always was.
     */
    @State(Scope.Thread)
    public static class Caller {
        Callers.Caller own;
        /** The calibration aid's extra calls, counted per caller; none unless -Dinferbench.slowdown is set. */
        InjectedSlowdown slowdown;
        /** This caller's slow calls ({@code --tail}); off, a branch before and after the call. */
        SlowCalls tail;

        @Setup(Level.Trial)
        public void take(InferenceBenchmark cell) {
            own = cell.callers.next();
            try {
                slowdown = InjectedSlowdown.ofProperty();
            } catch (BenchException e) {
                throw new CellFailure(e);
            }
            tail = SlowCalls.forThisThread(); // thread-scoped trial setup runs on the caller's own thread
            ServingThreads.join(); // this JMH thread is a caller: its CPU is the serving side's (cpu.call.serving)
        }
    }

    /** A calibration's planted disturbance in this fork ({@code -Dinferbench.busyForks}); null without one. */
    private BusyNeighbour neighbour;

    @Setup(Level.Trial)
    public void load(BenchmarkParams jmh) {
        CellFailure.setUp(() -> {
            callers = Callers.load(cell(BenchConfig.load(), jmh));
            neighbour = BusyNeighbour.startIfPlanted();
            String aid = InjectedSlowdown.describe(InjectedSlowdown.percent());
            if (!aid.isEmpty()) {
                System.out.println(aid);
            }
        }, this::tearDown);
    }

    /** In a duet (compare-commits --duet) each measured iteration starts with the other side's; in turns, after it. */
    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        duet.arrive(params);
    }

    /** In turns (compare-commits --turns) the end of an iteration hands the machine to the other side. */
    @TearDown(Level.Iteration)
    public void iterationEnd() {
        duet.leave();
    }

    @Benchmark
    public void infer(Caller caller, Blackhole bh) throws BenchException {
        recorded(caller.tail, caller.own, caller.slowdown, bh);
    }

    /**
     * One measured call and the slow-call recorder around it ({@code --tail}; off, a branch before and after). {@code
     * calibrate tail-check} times this method with the recorder on against a copy that only ever sees it off.
     */
    public static void recorded(SlowCalls tail, Callers.Caller own, InjectedSlowdown slowdown, Blackhole bh)
            throws BenchException {
        long start = tail.start();
        call(own, slowdown, bh);
        tail.end(start);
    }

    /**
     * One measured call, and with the calibration aid on, its extra calls: a long call waited out P % longer, a short
     * one made again now and then, from the same call site (so that an extra call is compiled as every call is); off
     * (the default) it is a field read and a branch before and after the call. {@code calibrate aid-check} times this
     * method with the aid on and off in one JVM.
     *
     * @return the calls made (1, or more when the aid adds extra ones)
     */
    public static int call(Callers.Caller own, InjectedSlowdown slowdown, Blackhole bh) throws BenchException {
        long start = slowdown.start();
        int calls = 1;
        for (int i = 0; i < calls; i++) {
            try (Outputs out = own.run()) {
                bh.consume(out);
            }
            if (i == 0) {
                calls += slowdown.extraCalls(start);
            }
        }
        return calls;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (neighbour != null) {
            neighbour.close();
            neighbour = null;
        }
        if (callers != null) {
            callers.close();
            callers = null;
        }
    }
}
