package dev.inferbench.compare;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A commit that adds a parameter at its default still compares with the commit before it. */
class AddedParamTest {

    private static CellResults withParams(CellResults c, Map<String, String> extra) {
        Map<String, String> p = new TreeMap<>(c.key().params());
        p.putAll(extra);
        return new CellResults(new CellKey(c.key().benchmark(), p), c.mode(), c.metrics());
    }

    @Test
    void aParamOnlyOneSideHasWithOneValueIsLeftOutOfTheMatch() throws BenchException {
        List<CellResults> before = List.of(ComparerTest.cell("1", 10, "avgt", "ms/op"),
                ComparerTest.cell("8", 80, "avgt", "ms/op"));
        Map<String, String> added = Map.of("callers", "1", "sharing", "shared", "spin", "on");
        List<CellResults> after = List.of(withParams(ComparerTest.cell("1", 10, "avgt", "ms/op"), added),
                withParams(ComparerTest.cell("8", 80, "avgt", "ms/op"), added));
        Comparer.Report r = Comparer.compare(before, after, 0.03, 0.99);
        assertThat(r.onlyBaseline()).isEmpty();
        assertThat(r.onlyCandidate()).isEmpty();
        assertThat(r.rows()).extracting(c -> c.cell().params().get("batchSize")).contains("1", "8");
    }

    @Test
    void aParamWithSeveralValuesStillTellsCellsApart() {
        List<CellResults> before = List.of(ComparerTest.cell("1", 10, "avgt", "ms/op"));
        List<CellResults> after = List.of(withParams(ComparerTest.cell("1", 10, "avgt", "ms/op"), Map.of("callers", "1")),
                withParams(ComparerTest.cell("1", 10, "avgt", "ms/op"), Map.of("callers", "2")));
        assertThatThrownBy(() -> Comparer.compare(before, after, 0.03, 0.99))
                .hasMessageStartingWith("no cell of the baseline matches a cell of the candidate");
    }
}
