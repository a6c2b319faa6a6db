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
    void anInvalidStepIsNeverTheKneeAndSaysWhy() {
        CellSummary fine = cell("10000", "on", 10_000, 0.5, 1, Double.NaN);
        fine.extras().put("serve.valid", 1.0);
        CellSummary late = cell("20000", "on", 20_000, 0.6, 0, Double.NaN);
        late.extras().putAll(Map.of("serve.valid", 0.0, "serve.invalid.late", 1.0, "serve.late", 28.0,
                "serve.late.bound", 1.0));
        CellSummary behind = cell("25000", "on", 25_000, 0.7, 0, Double.NaN);
        behind.extras().putAll(Map.of("serve.valid", 0.5, "serve.invalid.rate", 1.0, "serve.rate", 21_000.0));
        CellSummary again = cell("30000", "on", 30_000, 0.5, 1, Double.NaN);
        again.extras().put("serve.valid", 1.0);
        String out = ServingTable.render(List.of(behind, late, fine, again));
        assertThat(out).contains("INVALID: late").contains("INVALID 1/3: behind").contains("yes");
        assertThat(out).contains("10000 req/s at p90<60ms (next rate tried, 20000 req/s, INVALID: arrivals late"
                + " (28.00 % over 1.000 ms late)); not monotone: 30000 req/s met above it");
        assertThat(ServingTable.render(List.of(late))).contains("no offered rate met p90<60ms (the lowest, 20000 req/s,"
                + " INVALID: arrivals late");
    }

    @Test
    void aSearchWhoseTopPassedIsACeilingAndOneThatCouldNotTellIsUnsure() {
        CellSummary top = cell("max", "on", 20_000, 0.5, 1, 20_000);
        top.extras().put("serve.ceiling", 1.0);
        assertThat(ServingTable.render(List.of(top))).contains("poisson arrivals: ≥ 20000 ± 2.500 req/s at p90<60ms:"
                + " the highest rate tried passed (a ceiling, not a knee; 3 forks)");
        CellSummary knee = cell("max", "on", 40, 55, 1, 40);
        knee.extras().putAll(Map.of("serve.ceiling", 0.0, "serve.failing", 42.0, "serve.nonmonotone", 1 / 3.0));
        assertThat(ServingTable.render(List.of(knee))).contains("40.00 ± 2.500 req/s sustainable at p90<60ms (highest"
                + " rate each fork's search showed met; the next, 42.00 req/s on average, was not; 3 forks); not"
                + " monotone: 1 pair(s) of rates met above one not met");
        CellSummary unsure = cell("30", "on", 30, 59, 0, Double.NaN);
        unsure.extras().put("serve.slo.unsure", 1.0);
        String out = ServingTable.render(List.of(cell("20", "on", 20, 40, 1, Double.NaN), unsure));
        assertThat(out).contains("unsure").contains("next rate tried, 30.00 req/s, could not show it met: p90 59.00 ms,"
                + " too close to the bound for its requests");
    }

    @Test
    void generationUnderLoadGetsItsTokenColumnsAndEachTermInItsKneeLine() {
        CellSummary gen = cell("100", "on", 100, 20, 0, Double.NaN);
        gen.params().remove("spin");
        gen.params().remove("sharing");
        gen.params().put("slo", "ttft.p99<50ms&tpot.p99<1ms");
        gen.params().put("promptLen", "uniform(16..128)");
        gen.params().put("batchWaitMs", "0");
        gen.params().put("lengths", "none");
        gen.extras().putAll(Map.of("serve.ttft.p50", 3.25, "serve.ttft.p99", 61.5, "serve.tpot.p50", 0.125,
                "serve.tpot.p99", 0.75, "serve.itl.p99", 1.5, "serve.tokens.output", 4321.0, "serve.valid", 1.0));
        CellSummary ok = cell("50", "on", 50, 10, 1, Double.NaN);
        ok.params().clear();
        ok.params().putAll(gen.params());
        ok.params().put("rate", "50");
        ok.extras().put("serve.valid", 1.0);
        String out = ServingTable.render(List.of(gen, ok));
        String head = out.lines().filter(l -> l.contains("offered/s")).findFirst().orElseThrow();
        assertThat(head).contains("TTFT p50  TTFT p99  TPOT p50  TPOT p99  ITL p99  out tok/s").doesNotContain("sharing");
        assertThat(out).contains("61.50").contains("0.7500").contains("4321");
        String knee = out.lines().filter(l -> l.startsWith("knee:")).findFirst().orElseThrow();
        assertThat(knee).contains("static batches of up to 1 requests within 0 ms").doesNotContain("lengths=none");
        assertThat(out).contains("next rate tried, 100.0 req/s, missed it: ttft.p99 61.50 ms, tpot.p99 0.7500 ms");
        // plain serving cells keep their table: no token column where no cell has the figure
        assertThat(ServingTable.render(List.of(cell("10", "on", 10, 40, 1, Double.NaN)))).doesNotContain("TTFT");
    }

    @Test
    void aRunWithoutServingCellsHasNoServingTable() {
        assertThat(ServingTable.render(List.of())).isEmpty();
    }

    /** A cpu/req figure with ORT's threads spinning in it says so, and points at spin=off; one without says nothing. */
    @Test
    void cpuPerRequestSaysWhenSpinningThreadsAreInIt() {
        CellSummary on = cell("10/s", "on", 10, 1, 1, Double.NaN);
        CellSummary off = cell("10/s", "off", 10, 1, 1, Double.NaN);
        on.extras().put("cpu.call", 23.0);
        off.extras().put("cpu.call", 0.5);
        assertThat(ServingTable.spinNote(List.of(on, off))).hasValue("cpu/req: 1 of 2 cells' CPU per request includes"
                + " ONNX Runtime's threads spinning between requests (spin=on, the default); run with -p spin=off to"
                + " see the difference");
        assertThat(ServingTable.render(List.of(on))).contains("cpu/req: every cell's CPU per request includes");
        assertThat(ServingTable.spinNote(List.of(off))).isEmpty();
    }
}
