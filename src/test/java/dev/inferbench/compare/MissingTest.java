package dev.inferbench.compare;

import dev.inferbench.BenchException;
import dev.inferbench.report.CompareJson;
import dev.inferbench.report.CompareTable;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.inferbench.compare.ComparerTest.cell;
import static org.assertj.core.api.Assertions.assertThat;

/** The gated cells and metrics one side lacks: named with that side, and only those of the gate. */
class MissingTest {

    private static CellResults ms(String batch, double ms) {
        return cell(batch, ms, "avgt", "ms/op");
    }

    private static CellResults without(CellResults c, String metric) {
        Map<String, MetricSeries> metrics = new LinkedHashMap<>(c.metrics());
        metrics.remove(metric);
        return new CellResults(c.key(), c.mode(), metrics);
    }

    private static Comparer.Report compare(List<CellResults> base, List<CellResults> head, Set<String> gate)
            throws BenchException {
        return Comparer.compare(base, head, 0.03, Verdict.CONFIDENCE, gate);
    }

    private static List<String> lines(Comparer.Report r) {
        return r.missing().stream().map(m -> m.line(m.cell().label(CompareTable.varying(r)))).toList();
    }

    @Test
    void aCellOnlyBaseMeasuredIsLostByHead() throws BenchException {
        Comparer.Report r = compare(List.of(ms("1", 20), ms("8", 150)), List.of(ms("1", 20)), Comparer.PRIMARY_ONLY);
        assertThat(lines(r)).containsExactly("cell infer batchSize=8: measured in BASE only; HEAD has no fork of it");
        assertThat(r.lostByHead()).extracting(Missing::lackingSide).containsExactly("candidate");
        assertThat(r.onlyBaseline()).extracting(CellKey::label).containsExactly("infer batchSize=8 engine=ort");
    }

    @Test
    void aCellOnlyHeadMeasuredIsMissingButNotLost() throws BenchException {
        Comparer.Report r = compare(List.of(ms("1", 20)), List.of(ms("1", 20), ms("16", 300)), Comparer.PRIMARY_ONLY);
        assertThat(lines(r)).containsExactly("cell infer batchSize=16: measured in HEAD only; BASE has no fork of it");
        assertThat(r.lostByHead()).isEmpty();
    }

    @Test
    void aGatedMetricOneSideLacksIsNamedInEveryFormat() throws BenchException, IOException {
        Set<String> gate = Set.of(Comparer.PRIMARY, "samples");
        Comparer.Report r = compare(List.of(ms("1", 20), ms("2", 30)),
                List.of(without(ms("1", 20), "samples"), ms("2", 30)), gate);
        assertThat(lines(r)).containsExactly(
                "cell infer batchSize=1: samples measured in BASE only; HEAD's forks of it have no samples");
        assertThat(r.lostByHead()).hasSize(1);
        assertThat(CompareTable.text(r)).contains("gated metric samples missing in candidate: infer batchSize=1\n");
        assertThat(CompareTable.markdown(r)).contains("- gated metric samples missing in candidate: infer batchSize=1\n");
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        CompareJson.write(r, json);
        assertThat(json.toString(StandardCharsets.UTF_8)).contains("\"missing\" : [ {\n    \"benchmark\" : \"b.Bench.infer\","
                + "\n    \"params\" : {\n      \"batchSize\" : \"1\",\n      \"engine\" : \"ort\"\n    },\n"
                + "    \"metric\" : \"samples\",\n    \"lacking\" : \"candidate\"\n  } ]");
    }

    @Test
    void whatTheGateDoesNotHoldIsNotMissing() throws BenchException {
        // odd.metric is outside the gate; a cell without samples holds nothing of a gate of samples alone
        Comparer.Report r = compare(List.of(ms("1", 20), without(ms("8", 150), "samples")),
                List.of(without(ms("1", 20), "odd.metric")), Set.of("samples"));
        assertThat(r.missing()).isEmpty();
        assertThat(r.onlyBaseline()).hasSize(1);
        Comparer.Report primary = compare(List.of(ms("1", 20)), List.of(without(ms("1", 20), "odd.metric")),
                Comparer.PRIMARY_ONLY);
        assertThat(primary.missing()).isEmpty();
    }

    @Test
    void nothingIsMissingWhereBothSidesHaveEverything() throws BenchException {
        Comparer.Report r = compare(List.of(ms("1", 20), ms("2", 30)), List.of(ms("1", 22), ms("2", 30)),
                Set.of(Comparer.PRIMARY, "samples", "odd.metric"));
        assertThat(r.missing()).isEmpty();
        assertThat(r.family()).isEqualTo(6);
        assertThat(CompareTable.text(r)).doesNotContain("missing in").doesNotContain("only in");
    }
}
