package dev.inferbench.results.jmh;

import java.util.Map;
import dev.inferbench.BenchException;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.RunReader;
import dev.inferbench.report.CompareTable;
import dev.inferbench.report.Reports;
import dev.inferbench.run.Mutator;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The one JMH JSON reader, on files JMH 1.37 wrote here and on a hand-written file with JMH's quirks. */
class JmhJsonTest {
    @TempDir
    Path dir;

    static String resource(String name) throws IOException {
        try (InputStream in = JmhJsonTest.class.getResourceAsStream("/jmh/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<MeasuredCell> parse(String text) throws BenchException {
        return JmhJson.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "test.json");
    }

    @Test
    void forksThatTookTurnsSayItInTheirJvmArguments() throws Exception {
        String plain = resource("sample-time.json");
        assertThat(parse(plain)).noneMatch(MeasuredCell::tookTurns);
        String turns = plain.replaceFirst("\"jvmArgs\" : \\[\\s*]",
                "\"jvmArgs\" : [ \"-Dinferbench.duet=/tmp/c/duet/now:head:turns\" ]");
        assertThat(turns).isNotEqualTo(plain);
        assertThat(parse(turns).get(0).tookTurns()).isTrue();
        String duet = plain.replaceFirst("\"jvmArgs\" : \\[\\s*]",
                "\"jvmArgs\" : [ \"-Dinferbench.duet=/tmp/c/duet/now:head\" ]");
        assertThat(parse(duet).get(0).tookTurns()).as("a duet measures together, not in turns").isFalse();
    }

    @Test
    void sampleTimeFileFromThisHarness() throws Exception {
        List<MeasuredCell> cells = parse(resource("sample-time.json"));
        assertThat(cells).hasSize(2);
        MeasuredCell c = cells.get(0);
        assertThat(c.shortName()).isEqualTo("InferenceBenchmark.infer");
        assertThat(c.mode()).isEqualTo("sample");
        assertThat(c.forks()).isEqualTo(2);
        assertThat(c.params()).containsEntry("model", "resnet-tiny").containsEntry("batchSize", "1");
        assertThat(c.primary().unit()).isEqualTo("ms/op");
        assertThat(c.primary().percentile(50.0)).isPositive();
        double[][] means = c.primary().iterationMeans();
        assertThat(means).hasNumberOfRows(2);
        assertThat(means[0]).hasSize(2);
        // the score of a SampleTime cell is the mean of all calls: the histogram-weighted mean of the iterations
        double sum = 0;
        double n = 0;
        for (List<double[]> fork : c.primary().histograms()) {
            for (double[] bins : fork) {
                for (int i = 0; i < bins.length; i += 2) {
                    sum += bins[i] * bins[i + 1];
                    n += bins[i + 1];
                }
            }
        }
        assertThat(c.primary().sampleCount()).isEqualTo((long) n).isPositive();
        assertThat(sum / n).isCloseTo(c.primary().score(), within(c.primary().score() * 1e-9));
        assertThat(c.secondary()).containsKey("samples");
        assertThat(c.secondary().get("samples").unit()).isEqualTo("samples/s");
        assertThat(c.run()).containsEntry("jmhVersion", "1.37");
    }

    @Test
    void averageTimeWithGcProfiler() throws Exception {
        MeasuredCell c = parse(resource("average-time-gc.json")).get(0);
        assertThat(c.params()).containsExactly(Map.entry("atIteration", "1"), Map.entry("fault", "none"));
        assertThat(c.mode()).isEqualTo("avgt");
        assertThat(c.primary().rawData()).hasSize(2);
        assertThat(c.secondary()).containsKeys("gc.alloc.rate", "gc.alloc.rate.norm", "gc.count");
    }

    @Test
    void quirksNaNInfinityOldNamesAndNoUnit() throws Exception {
        MeasuredCell c = parse(resource("quirks.json")).get(0);
        assertThat(c.primary().score()).isNaN();
        assertThat(c.primary().scoreConfidence()).containsExactly(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        assertThat(c.secondary()).containsOnlyKeys("gc.alloc.rate", "async");
        assertThat(c.secondary().get("async").unit()).isEqualTo("---");
        assertThat(c.primary().iterationMeans()[0]).containsExactly(1.5, 2.5);
        assertThat(c.params()).isEmpty();
    }

    @Test
    void notAJmhFileIsOneClearLine() throws Exception {
        assertThatThrownBy(() -> JmhJson.read(dir.resolve("nope.json"))).isInstanceOf(BenchException.class)
                .hasMessage("result file not found: " + dir.resolve("nope.json") + "; expected a JMH JSON file (jmh-result.json)");
        assertThatThrownBy(() -> parse("")).hasMessage("test.json is empty; expected a JMH result file (a JSON array of benchmarks)");
        String real = resource("sample-time.json");
        assertThatThrownBy(() -> parse(real.substring(0, real.length() / 2))).isInstanceOf(BenchException.class)
                .hasMessageStartingWith("test.json is not valid JSON (").hasMessageEndingWith("expected a JMH result file, complete");
        assertThatThrownBy(() -> parse("{\"a\": 1}")).hasMessage("test.json is not a JMH result file (a JSON object, not an array of benchmarks)");
        assertThatThrownBy(() -> parse("[{\"name\": \"x\"}]")).hasMessage("test.json entry 0 is not a JMH benchmark result (no benchmark name or primaryMetric)");
        assertThatThrownBy(() -> parse("[{\"benchmark\": \"a.B.c\", \"primaryMetric\": {\"score\": \"fast\"}}]"))
                .hasMessage("test.json entry 0 primaryMetric holds 'fast' where a number was expected");
    }

    /**
     * Odd values read as the tree reader before the streaming one read them, found by running both on 12,000
     * mutants: a container where an array belongs is skipped whole (it once left the parser inside it), a bin or an
     * interval keeps its first two numbers, an int out of range is the default, and a file that is not valid JSON
     * says so even when an earlier value is wrong too.
     */
    @Test
    void oddValuesAreSkippedWholeAndInvalidJsonIsNamedFirst() throws Exception {
        MeasuredCell c = parse("""
                [{"benchmark": "a.B.c", "threads": 1e308, "forks": "3",
                  "primaryMetric": {"rawData": {"x": [1]}, "rawDataHistogram": {"y": 2}, "scoreUnit": "ms/op",
                                    "scoreConfidence": [1, 2, "not read"], "score": 4},
                  "secondaryMetrics": {"m": {"rawDataHistogram": [[[[1.5, 2, "extra"], 7, {"z": 1}]]], "scoreUnit": "s"}}}]
                """).get(0);
        assertThat(c.threads()).isEqualTo(1);
        assertThat(c.forks()).isEqualTo(3);
        assertThat(c.primary().unit()).isEqualTo("ms/op");
        assertThat(c.primary().score()).isEqualTo(4);
        assertThat(c.primary().scoreConfidence()).containsExactly(1, 2);
        assertThat(c.primary().rawData()).isEmpty();
        assertThat(c.primary().histograms()).isEmpty();
        JmhMetric m = c.secondary().get("m");
        assertThat(m.unit()).isEqualTo("s");
        assertThat(m.histograms().get(0).get(0)).containsExactly(1.5, 2, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        assertThat(m.sampleCount()).isEqualTo(2);
        assertThatThrownBy(() -> parse("[{\"benchmark\": \"a.B.c\", \"primaryMetric\": {\"score\": \"fast\"}}, {\"benchmark\" 1}]"))
                .hasMessageStartingWith("test.json is not valid JSON (");
    }

    /** Jackson's stream limits (nesting over 1,000, a number of over 1,000 digits) report no location. */
    @Test
    void jsonBeyondJacksonsLimitsIsOneClearLine() {
        assertThatThrownBy(() -> parse("[".repeat(1100) + "]".repeat(1100))).isInstanceOf(BenchException.class)
                .hasMessageStartingWith("test.json is not valid JSON (").hasMessageEndingWith("expected a JMH result file, complete");
        assertThatThrownBy(() -> parse("[{\"benchmark\": \"a.B.c\", \"threads\": " + "9".repeat(1200) + "}]"))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("test.json is not valid JSON (");
    }

    /**
     * 1,000 seeded mutants of a real file (AverageTime with the gc profiler, SampleTime with histograms): read, then
     * reported (every format but the plots) and compared with the unmutated file, or refused with a one-line
     * BenchException; nothing else.
     */
    @ParameterizedTest
    @ValueSource(strings = {"average-time-gc.json", "sample-time.json"})
    void fuzzedFilesGiveOnlyClearErrors(String fixture) throws Exception {
        String real = resource(fixture);
        List<CellResults> original = RunReader.read(Files.writeString(dir.resolve("original.json"), real));
        Path run = Files.createDirectories(dir.resolve("mutant"));
        List<String> escapes = new ArrayList<>();
        for (long seed = 1; seed <= 1000; seed++) {
            // odd seeds cut the text anywhere, even seeds keep it valid JSON with odd values (most get past the reader)
            String mutant = seed % 2 == 1 ? Mutator.mutate(real, seed) : Mutator.mutateJson(real, seed);
            try {
                for (MeasuredCell c : parse(mutant)) {
                    c.primary().iterationMeans();
                    c.secondary().values().forEach(JmhMetric::iterationMeans);
                }
            } catch (BenchException expected) {
                assertThat(expected.getMessage()).isNotBlank();
                continue;
            } catch (RuntimeException e) {
                escapes.add("read seed " + seed + ": " + e);
                continue;
            }
            Files.writeString(run.resolve("jmh-result.json"), mutant);
            String report = attempt("report", seed, () -> Reports.write(List.of(run), run.resolve("report"),
                    EnumSet.complementOf(EnumSet.of(Reports.Format.PLOTS))));
            String compare = attempt("compare", seed, () -> CompareTable.markdown(
                    Comparer.compare(original, RunReader.read(run), 0.03, Verdict.CONFIDENCE)));
            Stream.of(report, compare).filter(Objects::nonNull).forEach(escapes::add);
        }
        assertThat(escapes).isEmpty();
    }

    private interface Step {
        void run() throws BenchException;
    }

    /** Null when the step ran or was refused with a clear BenchException; else what escaped. */
    private static String attempt(String what, long seed, Step step) {
        try {
            step.run();
            return null;
        } catch (BenchException refused) {
            return refused.getMessage().isBlank() || refused.getMessage().contains("\n")
                    ? what + " seed " + seed + ": not one line: " + refused.getMessage() : null;
        } catch (RuntimeException e) {
            return what + " seed " + seed + ": " + e;
        }
    }
}
