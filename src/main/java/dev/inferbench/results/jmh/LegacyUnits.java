package dev.inferbench.results.jmh;

import dev.inferbench.ByteUnits;

import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/** Metrics of files written before the memory unit convention of {@link ByteUnits}, read in today's units. */
final class LegacyUnits {
    private LegacyUnits() {
    }

    /**
     * A metric as read from a file written before this convention, in today's unit: the {@code mem.*} figures were
     * MiB labelled "MB" (relabelled), {@code model.size} was 10^6 bytes (converted), and JMH's
     * {@code gc.alloc.rate} "MB/sec" is MiB/s (relabelled). Anything else is returned as it is.
     */
    static JmhMetric current(String name, JmhMetric m) {
        if (name.startsWith("mem.") && m.unit().startsWith("MB")) {
            return relabelled(m, ByteUnits.MIB + m.unit().substring(2));
        }
        if (name.equals("model.size") && m.unit().equals("MB")) {
            return scaled(m, ByteUnits.mib(1e6), ByteUnits.MIB);
        }
        if (name.equals("gc.alloc.rate") && m.unit().equals("MB/sec")) {
            return relabelled(m, ByteUnits.MIB + "/s");
        }
        return m;
    }

    private static JmhMetric relabelled(JmhMetric m, String unit) {
        return new JmhMetric(m.score(), m.scoreError(), m.scoreConfidence(), m.percentiles(), unit, m.rawData(),
                m.histograms());
    }

    /** Every value of m times {@code factor} (a positive unit conversion), in {@code unit}. */
    static JmhMetric scaled(JmhMetric m, double factor, String unit) {
        TreeMap<Double, Double> percentiles = new TreeMap<>();
        m.percentiles().forEach((p, v) -> percentiles.put(p, v * factor));
        List<List<Double>> raw = m.rawData().stream().map(f -> f.stream().map(v -> v * factor).toList()).toList();
        List<List<double[]>> hist = m.histograms().stream().map(fork -> fork.stream().map(bins -> {
            double[] b = bins.clone();
            for (int i = 0; i < b.length; i += 2) {
                b[i] *= factor;
            }
            return b;
        }).toList()).toList();
        double[] confidence = Arrays.stream(m.scoreConfidence()).map(v -> v * factor).toArray();
        return new JmhMetric(m.score() * factor, m.scoreError() * factor, confidence, percentiles, unit, raw, hist);
    }
}
