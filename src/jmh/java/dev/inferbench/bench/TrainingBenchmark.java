package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.tail.SlowCalls;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Trainer;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.metrics.TrainingProfiler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import java.util.concurrent.TimeUnit;

/**
 * The time and memory of one training step (the 004 seed's training memory): on {@code djl-pytorch}, a zoo model
 * rendered from its graph, a batch of seeded synthetic inputs, and per call the forward pass with gradients, a loss,
 * the backward pass and an SGD update ({@link Trainer}). The trial setup measures the memory of the fork's first step
 * beside one inference forward at the same batch, with libtorch's allocator accounting on (TrainingProfiler's
 * {@code train.mem.*}); the calls measured after it are steps with the gradients already allocated, as in a training
 * loop. Run it beside InferenceBenchmark to put the step's time next to inference's:
 * {@code java -jar benchmarks.jar 'Inference|Training' -p engine=djl-pytorch -p model=resnet50 -p batchSize=1,4}.
 */
// SampleTime, like inference: each step timed, so the JSON has the step's percentiles as well as its mean.
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class TrainingBenchmark extends BatchParams {

    private Trainer trainer;
    /** The steps' slow-call record ({@code --tail}); off, a branch before and after the step. */
    private SlowCalls tail = SlowCalls.off();

    private final DuetBarrier duet = DuetBarrier.fromProperty();

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

    @Setup(Level.Trial)
    public void load(BenchmarkParams jmh) {
        CellFailure.setUp(() -> {
            CellSpec cell = cell(BenchConfig.load(), jmh);
            trainer = cell.engine().openTrainer(cell.modelFile(), cell.device(), cell.settings());
            trainer.prepare(SyntheticInputs.forModel(cell.inputs(), trainer.signature().inputs()));
            TrainingProfiler.MEMORY.set(trainer.measureMemory());
            tail = SlowCalls.forSoleThread(jmh.getThreads());
        }, this::tearDown);
    }

    @Benchmark
    public void step() throws BenchException {
        long start = tail.start();
        trainer.step();
        tail.end(start);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (trainer != null) {
            trainer.close();
            trainer = null;
        }
    }
}
