package dev.inferbench.report;

import dev.inferbench.results.CellSummary;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ServingTableTest {

    private static CellSummary cell(String rate, String spin, double offered, double p90, double sloShare,
                                    double sustainable) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("model", "resnet50");
        params.put("engine", "ort");
        params.put("batchSize", "1");
        params.put("callers", "1");
        params.put("sharing", "shared");
        params.put("threads", "1");
        params.put("spin", spin);
        params.put("rate", rate);
        params.put("slo", "p90<60ms");
        Map<String, Double> extras = new LinkedHashMap<>();
        extras.put("serve.offered", offered);
        extras.put("serve.rate", offered);
        extras.put("serve.p90", p90);
        extras.put("serve.slo", sloShare);
        if (!Double.isNaN(sustainable)) {
            extras.put("serve.sustainable", sustainable);
            extras.put(CellSummary.SUSTAINABLE_HALF_WIDTH, 2.5);
        }
        return new CellSummary("ServingBenchmark.step", params, "ms/op", Double.NaN, Double.NaN,
                new Interval(1000, 990, 1010, 0.95, 3), Double.NaN, extras);
    }

    @Test
    void theKneeIsTheHighestRateMetInEveryForkBeforeTheFirstMiss() {
        List<CellSummary> cells = List.of(cell("40", "on", 40, 300, 0, Double.NaN), cell("10", "on", 10, 40, 1, Double.NaN),
                cell("30", "on", 30, 65, 1.0 / 3, Double.NaN), cell("20", "on", 20, 55, 1, Double.NaN),
                cell("max", "on", 24, 58, 1, 24.5), cell("10", "off", 10, 70, 0, Double.NaN));
        String out = ServingTable.render(cells);
        assertThat(out).contains("knee: resnet50 on ort, batch 1, 1 caller (shared) × 1 thread, poisson arrivals: "
                + "20.00 req/s at p90<60ms (next rate tried, 30.00 req/s, missed it: p90 65.00 ms)");
        assertThat(out).contains("knee: resnet50 on ort, batch 1, 1 caller (shared) × 1 thread, poisson arrivals: "
                + "24.50 ± 2.500 req/s sustainable at p90<60ms");
        // another setting (spinning off) gets its own line, named by what differs
        assertThat(out).contains("poisson arrivals, spin=off: no offered rate met p90<60ms");
        assertThat(out).contains("met 1/3");
        // rows of one setting in offered order
        assertThat(out.indexOf(" 10.00 ")).isLessThan(out.indexOf(" 20.00 "));
    }

    @Test
    void aRunWithoutServingCellsHasNoServingTable() {
        assertThat(ServingTable.render(List.of())).isEmpty();
    }
}
