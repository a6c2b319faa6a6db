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
                + "20.00 req/s at p90<60ms (next rate tried, 30.00 req/s, missed it in 2 of 3 forks (mean over forks):"
                + " p90 65.00 ms)");
        assertThat(out).contains("knee: resnet50 on ort, batch 1, 1 caller (shared) × 1 thread, poisson arrivals: "
                + "24.50 ± 2.500 req/s sustainable at p90<60ms");
        // another setting (spinning off) gets its own line, named by what differs
        assertThat(out).contains("poisson arrivals, spin=off: no offered rate met p90<60ms");
        assertThat(out).contains("met 1/3");
        // rows of one setting in offered order
        assertThat(out.indexOf(" 10.00 ")).isLessThan(out.indexOf(" 20.00 "));
    }

    @Test
    void dynamicBatchingIsNamedInTheKneeAndItsRequestsPerCallGetAColumn() {
        CellSummary one = cell("max", "on", 20, 50, 1, 20);
        CellSummary batched = cell("max", "on", 30, 55, 1, 30);
        batched.params().put("batchSize", "8");
        batched.params().put("batchWaitMs", "5");
        batched.extras().put("serve.batch", 3.25);
        one.params().put("batchWaitMs", "off");
        String out = ServingTable.render(List.of(one, batched));
        assertThat(out).contains("req/call").contains("3.250");
        assertThat(out).contains("knee: resnet50 on ort, dynamic batches of up to 8 requests within 5 ms, 1 caller"
                + " (shared) × 1 thread, poisson arrivals: 30.00 ± 2.500 req/s sustainable at p90<60ms");
        assertThat(out).contains("knee: resnet50 on ort, batch 1, 1 caller (shared) × 1 thread, poisson arrivals: 20.00");
        // without batching no cell has a requests-per-call figure: the column is left out
        assertThat(ServingTable.render(List.of(one))).doesNotContain("req/call");
    }

    @Test
    void aRunWithoutServingCellsHasNoServingTable() {
        assertThat(ServingTable.render(List.of())).isEmpty();
    }
}
