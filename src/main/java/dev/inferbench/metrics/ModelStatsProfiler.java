package dev.inferbench.metrics;

import dev.inferbench.BenchException;
import dev.inferbench.ByteUnits;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.model.stats.ActivationMemory;
import dev.inferbench.model.stats.ModelStats;
import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

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
public final class ModelStatsProfiler extends FigureProfiler {
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

    public ModelStatsProfiler() {
        super("model parameters, GMAC per sample and achieved GMAC/s");
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        // statistics are read lazily after the first iteration, outside any measurement
        Optional<CellSpec> cell = ForkCell.of(it.benchmark());
        ModelStats s = cell.map(this::stats).orElse(null);
        if (s == null) {
            return;
        }
        double gmac = s.macsPerSample() / 1e9;
        out.add(PARAMS, s.params(), "params").add(MACS, gmac, "GMAC/sample");
        if (s.sequence()) {
            out.add(TOKENS, cell.get().seqLen(), "tokens/sample");
        }
        long bytes = cellFileBytes(s, cell.get().precision());
        if (bytes >= 0) {
            out.add(SIZE, ByteUnits.mib(bytes), ByteUnits.MIB);
        }
        out.add(ACTIVATION_PEAK, activationPeak(cell.get()), ByteUnits.MIB);
        double nanos = CallMeanProfiler.meanNanos(it.benchmark(), it.params(), it.result());
        out.add(GMACS, cell.get().batchSize() * gmac / (nanos / 1e9), "GMAC/s");
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
