package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.metrics.SetupRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * Cold start: what a freshly started service pays before its first answer. The one measured call of a fresh JVM
 * loads the model (native library extraction and loading, session creation, graph optimisation), creates a batch of
 * one seeded input and runs it once. Every fork is a new JVM and gives one sample, so the forks' spread is the
 * cold-start distribution (p50/p90/max in the summary); {@code -f N} sets the number of samples.
 *
 * <p>Two figures per fork: the primary score, the call itself (load + first inference inside the JVM), and
 * {@code coldstart.process} (ms), from the JVM's recorded start time to the first result, which adds JVM start-up,
 * class loading and JMH's own fork start-up (a few tens of ms a real service would not have).
 */
// SingleShotTime: one call, timed alone; a second call in the same JVM would no longer be cold.
@BenchmarkMode(Mode.SingleShotTime)
// No warmup and one measurement per fork, for the same reason: inferbench keeps these (see JmhOptions).
@Warmup(iterations = 0)
@Measurement(iterations = 1)
// Milliseconds: cold starts take from ~100 ms (tiny models) to seconds.
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ColdStartBenchmark extends ModelParams {

    private CellSpec cell;

    /** Only the registry lookup (a properties file): nothing that warms the engine. */
    @Setup(Level.Trial)
    public void resolve(BenchmarkParams jmh) {
        try {
            cell = cell(BenchConfig.load(), jmh);
        } catch (BenchException e) {
            throw new CellFailure(e);
        }
    }

    @Benchmark
    public void firstResult(Blackhole bh) throws BenchException {
        SetupRecord.loadStarting();
        try (InferenceEngine loaded = cell.engine().open(cell.modelFile(), cell.device(), cell.settings())) {
            SetupRecord.loaded();
            try (PreparedInput input = loaded.prepare(SyntheticInputs.forModel(cell.inputs(), loaded.signature().inputs()))) {
                long start = System.nanoTime();
                try (Outputs out = loaded.run(input)) {
                    SetupRecord.firstInference(start);
                    bh.consume(out.shape(0));
                }
            }
        }
    }
}
