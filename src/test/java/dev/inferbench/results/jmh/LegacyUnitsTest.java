package dev.inferbench.results.jmh;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** A file written before the MiB convention reads in today's units, so that it still compares with a new run. */
class LegacyUnitsTest {
    private static final String OLD = """
            [{"benchmark": "b", "mode": "avgt", "forks": 1,
              "primaryMetric": {"score": 2, "scoreUnit": "ms/op", "rawData": [[2, 2]]},
              "secondaryMetrics": {
                "mem.rss.peak": {"score": 300, "scoreError": 10, "scoreConfidence": [290, 310], "scoreUnit": "MB",
                                 "rawData": [[300, 300]]},
                "mem.rss.growth": {"score": 0.5, "scoreUnit": "MB/10k calls", "rawData": [[0.5]]},
                "model.size": {"score": 102.4, "scoreUnit": "MB", "rawData": [[102.4, 102.4]]},
                "·gc.alloc.rate": {"score": 7, "scoreUnit": "MB/sec", "rawData": [[7]]},
                "other": {"score": 1, "scoreUnit": "MB", "rawData": [[1]]}}}]
            """;

    @Test
    void oldMemoryFiguresReadInMiB() throws Exception {
        Map<String, JmhMetric> m = JmhJson.read(new ByteArrayInputStream(OLD.getBytes(StandardCharsets.UTF_8)), "old")
                .get(0).secondary();
        // mem.* were always KiB / 1024: relabelled, the same numbers
        assertThat(m.get("mem.rss.peak").unit()).isEqualTo("MiB");
        assertThat(m.get("mem.rss.peak").score()).isEqualTo(300.0);
        assertThat(m.get("mem.rss.peak").scoreConfidence()).containsExactly(290.0, 310.0);
        assertThat(m.get("mem.rss.growth").unit()).isEqualTo("MiB/10k calls");
        // model.size was 10^6 bytes: converted, every value
        assertThat(m.get("model.size").unit()).isEqualTo("MiB");
        assertThat(m.get("model.size").score()).isCloseTo(102.4e6 / 1048576, within(1e-9));
        assertThat(m.get("model.size").rawData().get(0)).allSatisfy(v -> assertThat(v).isCloseTo(97.65625, within(1e-9)));
        // JMH's "MB/sec" is bytes / 1024 / 1024 per second
        assertThat(m.get("gc.alloc.rate").unit()).isEqualTo("MiB/s");
        assertThat(m.get("gc.alloc.rate").score()).isEqualTo(7.0);
        // a metric of someone else's keeps what its file says
        assertThat(m.get("other").unit()).isEqualTo("MB");
    }

    @Test
    void histogramValuesScaleAndCountsDoNot() {
        JmhMetric h = new JmhMetric(1, 0, new double[]{1, 1}, new java.util.TreeMap<>(Map.of(50.0, 1.0)), "MB",
                java.util.List.of(), java.util.List.of(java.util.List.of(new double[]{1.0, 3, 2.0, 5})));
        JmhMetric s = LegacyUnits.scaled(h, 2, "x");
        assertThat(s.histograms().get(0).get(0)).containsExactly(2.0, 3, 4.0, 5);
        assertThat(s.percentiles()).containsEntry(50.0, 2.0);
        assertThat(h.histograms().get(0).get(0)).as("the original is untouched").containsExactly(1.0, 3, 2.0, 5);
    }
}
