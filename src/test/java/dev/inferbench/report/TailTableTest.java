package dev.inferbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.Json;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.MetricCatalogue;
import dev.inferbench.results.RunLayout;
import dev.inferbench.stats.Interval;
import dev.inferbench.tail.Cause;
import dev.inferbench.tail.TailMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TailTableTest {
    private static CellSummary cell(Map<String, Double> extras) {
        return cell("InferenceBenchmark.infer", extras);
    }

    private static CellSummary cell(String benchmark, Map<String, Double> extras) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("model", "resnet50");
        params.put("engine", "ort");
        params.put("batchSize", "1");
        params.put("optLevel", "all");
        return new CellSummary(benchmark, params, "ms/op", 23.9, 44.0,
                new Interval(25, 24, 26, 0.95, 5), 40, extras);
    }

    private static Map<String, Double> tail() {
        Map<String, Double> x = new LinkedHashMap<>();
        x.put(TailMetrics.P99, 44.0);
        x.put(TailMetrics.CALLS, 12.0);
        for (String c : Cause.columns()) {
            x.put(TailMetrics.share(c), 0.0);
        }
        x.put(TailMetrics.share("gc"), 62.0);
        x.put(CellSummary.halfWidth(TailMetrics.share("gc")), 8.4);
        x.put(TailMetrics.share("descheduled"), 20.0);
        x.put(TailMetrics.share(Cause.UNEXPLAINED), 18.0);
        x.put(TailMetrics.without(Cause.GC), 27.5);
        return x;
    }

    @Test
    void theLineNamesTheCausesLargestFirstAndUnexplainedLast() {
        assertThat(TailTable.lines(List.of(cell(tail()), cell(Map.of())))).containsExactly(
                "tail    InferenceBenchmark.infer model=resnet50 engine=ort batchSize=1: p99 44.0 ms: 62 % GC pauses"
                        + " (± 8), 20 % descheduled, 18 % unexplained; without GC pauses p99 27.5 ms (12 calls above"
                        + " p99 a fork)");
    }

    @Test
    void aGenerationCellCountsTokens() {
        assertThat(TailTable.line(cell("GenerationBenchmark.request", tail()))).endsWith("(12 tokens above p99 a fork)");
        assertThat(TailTable.line(cell(tail()))).endsWith("(12 calls above p99 a fork)");
    }

    @Test
    void tooFewCallsForAP99SayNa() {
        Map<String, Double> x = tail();
        x.put(TailMetrics.CALLS, 0.0);
        assertThat(TailTable.line(cell(x))).isEqualTo("p99 44.0 ms: n/a (a fork's p99 needs 100 calls; its tail is"
                + " its maximum: give each fork more measured calls, e.g. -i 5 -r 1s)");
        // an open-loop step's calls are its requests': more iterations would not add any
        assertThat(TailTable.line(cell("ServingBenchmark.step", x))).endsWith("give each fork more requests a step,"
                + " e.g. -p requests=2000)");
    }

    @Test
    void theRunsTailJsonHoldsEachCausesShareWithItsInterval(@TempDir Path run) throws Exception {
        TailTable.write(run, List.of(cell(tail())));
        JsonNode root = Json.mapper().readTree(run.resolve(RunLayout.TAIL).resolve(TailTable.FILE).toFile());
        JsonNode gc = root.get(0).get("aboveP99").get("gc");
        assertThat(gc.get("mean").asDouble()).isEqualTo(62.0);
        assertThat(gc.get("halfWidth95").asDouble()).isEqualTo(8.4);
        assertThat(root.get(0).get("p99WithoutMs").get("gc").get("mean").asDouble()).isEqualTo(27.5);
        assertThat(root.get(0).get("aboveP99").get("wait").get("halfWidth95").isNull()).isTrue();
    }

    @Test
    void noTailCellWritesNoFile(@TempDir Path run) throws Exception {
        TailTable.write(run, List.of(cell(Map.of())));
        assertThat(run.resolve(RunLayout.TAIL)).doesNotExist();
    }

    @Test
    void theCatalogueNamesEveryTailFigureAndEachForksLastValueIsItsOwn() {
        for (String c : Cause.columns()) {
            assertThat(MetricCatalogue.find(TailMetrics.share(c))).as(c).isNotNull();
            assertThat(MetricCatalogue.find(TailMetrics.top(c))).as(c).isNotNull();
        }
        assertThat(MetricCatalogue.find(TailMetrics.without(Cause.DESCHEDULED)).unit()).isEqualTo("ms");
        assertThat(MetricCatalogue.find("tail.nothing")).isNull();
        assertThat(MetricCatalogue.find("tail.p99").name()).isEqualTo("tail.p99");
        assertThat(MetricCatalogue.forkRule(TailMetrics.share("gc"))).isEqualTo(dev.inferbench.results.ForkRule.LAST);
    }
}
