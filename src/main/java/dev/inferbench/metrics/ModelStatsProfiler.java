package dev.inferbench.metrics;

import java.util.ArrayList;
import java.nio.file.Files;
import java.io.IOException;
import dev.inferbench.ByteUnits;
import dev.inferbench.cell.CellSpec;
import java.util.Optional;
import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;
import dev.inferbench.BenchException;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.model.stats.ModelStats;
import java.nio.file.Path;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.Collection;
import java.util.List;

/**
 * Each cell's model statistics and achieved compute rate as JMH secondary metrics: {@value #PARAMS} (parameters),
 * {@value #MACS} (GMAC per sample at the cell's seqLen) and {@value #GMACS} (GMAC/s: batchSize x MACs per sample
 * / mean call time), so reports can compare models of different size by work done, not only by latency.
 * The statistics are read once per fork from the model file (without its weights). {@value #SIZE} (MB) is the size
 * of the file the cell runs: the fp16/int8 variant for those precisions, whose parameters and MACs are the fp32
 * network's. {@value #ACTIVATION_PEAK} (MB) is the peak of live intermediate tensors of that file's graph at the
 * cell's batch and seqLen ({@link ActivationMemory}); it is left out when a shape could not be inferred, as it would
 * be a lower bound. Benchmarks without a {@code model} parameter, and models whose file cannot be read, get nothing.
 */
public final class ModelStatsProfiler implements InternalProfiler {
    public static final String PARAMS = "model.params";
    public static final String MACS = "model.macs";
    public static final String GMACS = "gmacs";
    public static final String SIZE = "model.size";
    public static final String ACTIVATION_PEAK = "mem.activation.peak";
    /** The cell's seqLen, given only when the model's inputs take it: what tells a reader seqLen applies. */
    public static final String TOKENS = "model.tokens";

    private String statsKey;
    private ModelStats stats;
    private String activationKey;
    private double activationPeak = Double.NaN;

    @Override
    public String getDescription() {
        return "model parameters, GMAC per sample and achieved GMAC/s";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // statistics are read lazily after the first iteration, outside any measurement
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        Optional<CellSpec> cell = ForkCell.of(benchmarkParams);
        ModelStats s = cell.map(this::stats).orElse(null);
        if (s == null) {
            return List.of();
        }
        double gmac = s.macsPerSample() / 1e9;
        List<Result> out = new ArrayList<>(List.of(
                new ScalarResult(PARAMS, s.params(), "params", AggregationPolicy.AVG),
                new ScalarResult(MACS, gmac, "GMAC/sample", AggregationPolicy.AVG)));
        if (s.sequence()) {
            out.add(new ScalarResult(TOKENS, cell.get().seqLen(), "tokens/sample", AggregationPolicy.AVG));
        }
        long bytes = cellFileBytes(s, cell.get().precision());
        if (bytes >= 0) {
            out.add(new ScalarResult(SIZE, ByteUnits.mib(bytes), ByteUnits.MIB, AggregationPolicy.AVG));
        }
        double peak = activationPeak(cell.get());
        if (!Double.isNaN(peak)) {
            out.add(new ScalarResult(ACTIVATION_PEAK, peak, ByteUnits.MIB, AggregationPolicy.AVG));
        }
        double nanos = CallMeanProfiler.meanNanos(benchmarkParams, iterationParams, result);
        if (!Double.isNaN(nanos)) {
            out.add(new ScalarResult(GMACS, cell.get().batchSize() * gmac / (nanos / 1e9), "GMAC/s",
                    AggregationPolicy.AVG));
        }
        return out;
    }

    /** The size of the file this cell runs, or -1 when it cannot be told. */
    private static long cellFileBytes(ModelStats s, Precision precision) {
        try {
            return Files.size(Variants.file(s.file(), precision));
        } catch (IOException e) {
            return -1;
        }
    }

    /** MiB (as every mem.* figure) of the cell's file at its batch and seqLen; NaN when it cannot be told. */
    private double activationPeak(CellSpec cell) {
        Path file = Variants.file(cell.modelFile(), cell.precision());
        String key = file + "@" + cell.batchSize() + "@" + cell.seqLen();
        if (!key.equals(activationKey)) {
            activationKey = key;
            try {
                ActivationMemory m = ActivationMemory.of(file, cell.modelName(), cell.model().inputs(),
                        cell.batchSize(), cell.seqLen());
                activationPeak = m.unknown() > 0 ? Double.NaN : ByteUnits.mib(m.peakBytes());
            } catch (BenchException | RuntimeException unreadable) {
                activationPeak = Double.NaN; // not an ONNX file (TorchScript), or not one shape inference reads
            }
        }
        return activationPeak;
    }

    private ModelStats stats(CellSpec cell) {
        String key = cell.modelName() + "@" + cell.seqLen();
        if (!key.equals(statsKey)) {
            statsKey = key;
            try {
                stats = cell.model().stats(cell.seqLen());
            } catch (BenchException | RuntimeException unreadable) {
                stats = null; // the benchmark's own setup reports a bad model; the metrics are simply absent
            }
        }
        return stats;
    }
}
