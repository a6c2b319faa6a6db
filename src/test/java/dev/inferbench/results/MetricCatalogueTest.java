package dev.inferbench.results;

import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.metrics.MemoryProfiler;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.stats.Direction;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.inferbench.stats.Direction.HIGHER_IS_BETTER;
import static dev.inferbench.stats.Direction.LOWER_IS_BETTER;
import static dev.inferbench.stats.Direction.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

/** The one metric catalogue: its rules on the names this harness writes, and docs/metrics.md's table held to it. */
class MetricCatalogueTest {
    private static final String HEADER = "| metric | unit | shown in | better | forks | gate | what it is |";
    private static final Pattern ROW = Pattern.compile("\\| `([^`]+)` \\|(.*)\\|");

    @Test
    void qualityAndThroughputGrowTimesMemoryAndErrorsShrink() {
        assertThat(direction("samples", "samples/s")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(direction("gmacs", "")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(direction("accuracy.top5", "%")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(direction("fidelity.cosine", "cos")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(direction("fidelity.maxabs", "abs")).isEqualTo(LOWER_IS_BETTER);
        assertThat(direction("time", "ms/op")).isEqualTo(LOWER_IS_BETTER);
        assertThat(direction("mem.rss.peak", "MB")).isEqualTo(LOWER_IS_BETTER); // a file from before MiB
        assertThat(direction("gc.alloc.rate", "MB/sec")).isEqualTo(LOWER_IS_BETTER);
        assertThat(direction("coldstart.process", "ms")).isEqualTo(LOWER_IS_BETTER);
        assertThat(direction("model.params", "params")).isEqualTo(UNKNOWN);
        assertThat(direction("serve.p99.9", "ms")).isEqualTo(LOWER_IS_BETTER);
        assertThat(direction("serve.goodput", "req/s")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(direction("serve.offered", "req/s")).isEqualTo(UNKNOWN);
        assertThat(direction("gen.prefill.share", "%")).isEqualTo(UNKNOWN);
    }

    @Test
    void aMetricItDoesNotNameIsJudgedByItsUnit() {
        assertThat(MetricCatalogue.find("my.figure")).isNull();
        assertThat(direction("my.figure", "us/op")).isEqualTo(LOWER_IS_BETTER);
        assertThat(direction("my.figure", "ops/s")).isEqualTo(HIGHER_IS_BETTER);
        assertThat(direction("my.figure", "MiB/s")).isEqualTo(UNKNOWN);
        assertThat(MetricCatalogue.of("my.figure", "us/op").speed()).isTrue();
        assertThat(MetricCatalogue.forkRule("my.figure")).isEqualTo(ForkRule.MEAN);
    }

    /** The report's column groups come from the catalogue; a metric it does not name goes by its name's prefix. */
    @Test
    void eachMetricHasItsGroupAndAnUnnamedOneTakesItsPrefixs() {
        assertThat(MetricCatalogue.find("samples").group()).isEqualTo(MetricGroup.THROUGHPUT);
        assertThat(MetricCatalogue.find("latency.sample").group()).isEqualTo(MetricGroup.LATENCY);
        assertThat(MetricCatalogue.find("load.time").group()).isEqualTo(MetricGroup.STARTUP);
        assertThat(MetricCatalogue.find("train.mem.step").group()).isEqualTo(MetricGroup.MEMORY);
        assertThat(MetricCatalogue.find("serve.p99").group()).isEqualTo(MetricGroup.OTHER);
        assertThat(MetricCatalogue.of("gc.churn.G1_Eden_Space", "MB/sec").group()).isEqualTo(MetricGroup.CPU);
        assertThat(MetricCatalogue.of("fidelity.new", "%").group()).isEqualTo(MetricGroup.QUALITY);
        assertThat(MetricCatalogue.of("my.figure", "ms").group()).isEqualTo(MetricGroup.OTHER);
    }

    @Test
    void familiesTakeTheirPercentilesAndNothingElse() {
        assertThat(MetricCatalogue.find("p99.9").name()).isEqualTo("p<p>");
        assertThat(MetricCatalogue.find("gen.itl.p50").name()).isEqualTo("gen.itl.p<p>");
        assertThat(MetricCatalogue.find("serve.ttft.p99").name()).isEqualTo("serve.ttft.p<p>");
        assertThat(MetricCatalogue.find("pp99")).isNull();
        assertThat(MetricCatalogue.find("serve.p99x")).isNull();
    }

    @Test
    void theGateTakesTheTimeAndAGenerationCellsTtftAndTpot() {
        assertThat(MetricCatalogue.all().stream().filter(MetricEntry::gated).map(MetricEntry::name))
                .containsExactly("time", "throughput", GenerationFigures.TTFT, GenerationFigures.TPOT);
    }

    @Test
    void forkFiguresTakeEachForksLastValue() {
        assertThat(MetricCatalogue.forkRule(MemoryProfiler.RSS_GROWTH)).isEqualTo(ForkRule.LAST);
        assertThat(MetricCatalogue.forkRule(MemoryProfiler.RSS_PEAK)).isEqualTo(ForkRule.MAX);
        assertThat(MetricCatalogue.forkRule(MemoryProfiler.RSS)).isEqualTo(ForkRule.MEAN);
    }

    @Test
    void eachRuleGivesItsValuePerForkAndTheValueShown() {
        JmhMetric m = new JmhMetric(3.4, Double.NaN, new double[]{Double.NaN, Double.NaN}, new TreeMap<>(), "MiB",
                List.of(List.of(1.0, 4.0), List.of(2.0, 7.0, 3.0)), List.of());
        assertThat(ForkRule.MEAN.forks(m)).isDeepEqualTo(new double[][]{{1, 4}, {2, 7, 3}});
        assertThat(ForkRule.MEAN.value(m)).isEqualTo(3.4); // JMH's score, the mean of every iteration
        assertThat(ForkRule.LAST.forks(m)).isDeepEqualTo(new double[][]{{4}, {3}});
        assertThat(ForkRule.LAST.value(m)).isEqualTo(3.5);
        assertThat(ForkRule.MAX.forks(m)).isDeepEqualTo(new double[][]{{4}, {7}});
        assertThat(ForkRule.MAX.value(m)).isEqualTo(7);
    }

    @Test
    void generationFiguresAreWrittenInTheCataloguesUnits() {
        GenerationFigures.UNITS.forEach((name, unit) ->
                assertThat(MetricCatalogue.find(name)).as(name).isNotNull().extracting(MetricEntry::unit).isEqualTo(unit));
    }

    @Test
    void everyCatalogueMetricIsInTheDocsTableAndNothingElse() throws IOException {
        Map<String, List<String>> documented = docsTable();
        Map<String, List<String>> catalogue = new LinkedHashMap<>();
        for (MetricEntry e : MetricCatalogue.all()) {
            catalogue.put(e.name(), List.of(e.unit(), e.display(), better(e.direction()), e.forks().text(),
                    e.gated() ? "yes" : "no"));
        }
        assertThat(documented.keySet()).as("docs/metrics.md's metric table against MetricCatalogue")
                .containsExactlyInAnyOrderElementsOf(catalogue.keySet());
        documented.forEach((name, cols) -> {
            assertThat(cols.subList(0, 5)).as(name).isEqualTo(catalogue.get(name));
            assertThat(cols.get(5)).as(name + ": what it is").isNotBlank();
        });
    }

    private static Map<String, List<String>> docsTable() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("docs/metrics.md"), StandardCharsets.UTF_8);
        int at = lines.indexOf(HEADER);
        assertThat(at).as("docs/metrics.md has the metric table").isNotNegative();
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            Matcher m = ROW.matcher(lines.get(i));
            assertThat(m.matches()).as("a row names one metric: " + lines.get(i)).isTrue();
            String[] cols = m.group(2).split("\\|", 6);
            assertThat(cols).as(lines.get(i)).hasSize(6);
            List<String> trimmed = Arrays.stream(cols).map(String::strip).toList();
            assertThat(rows.put(m.group(1), trimmed)).as("documented once: " + m.group(1)).isNull();
        }
        return rows;
    }

    private static String better(Direction d) {
        return switch (d) {
            case LOWER_IS_BETTER -> "lower";
            case HIGHER_IS_BETTER -> "higher";
            case UNKNOWN -> "neither";
        };
    }

    private static Direction direction(String name, String unit) {
        return MetricCatalogue.of(name, unit).direction();
    }
}
