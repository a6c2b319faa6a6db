package dev.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.results.RunLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * compare on two run folders measured with {@code --tail} (a real SampleTime file, 2 forks and 2 cells, given each
 * fork's tail figures): one line per cell whose shares differ, naming the cause that moved beyond its interval, or
 * saying that none did; nothing for a cell whose shares are the same, nor for runs without {@code --tail}.
 */
class CompareTailTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> COLUMNS = List.of("gc", "safepoint", "wait", "descheduled", "deopt", "compile",
            "unexplained");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private String compare(Path base, Path head) {
        int code = new Main(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(new String[] {"compare", base.toString(), head.toString()});
        assertThat(code).isZero();
        String text = out.toString(StandardCharsets.UTF_8);
        out.reset();
        return text;
    }

    /**
     * A run folder whose cells (batchSize 1, then 2) have the tail figures given: per cell the p99 of each fork and per
     * cause the share of each fork (%), the causes not named 0.
     */
    private Path run(String name, List<double[]> p99s, List<Map<String, double[]>> shares) throws IOException {
        Path run = Files.createDirectories(dir.resolve(name));
        ArrayNode cells = (ArrayNode) JSON.readTree(Path.of("src/test/resources/jmh/sample-time.json").toFile());
        for (int i = 0; i < cells.size(); i++) {
            ObjectNode secondary = (ObjectNode) cells.get(i).get("secondaryMetrics");
            secondary.set("tail.p99", metric(p99s.get(i), "ms"));
            secondary.set("tail.calls", metric(new double[] {12, 12}, "calls"));
            for (String c : COLUMNS) {
                secondary.set("tail." + c, metric(shares.get(i).getOrDefault(c, new double[] {0, 0}), "%"));
            }
        }
        JSON.writeValue(RunLayout.of(run).result().toFile(), cells);
        return run;
    }

    /** A secondary metric of two forks, each fork's figure in both its iterations (the tail's rule reads the last). */
    private static JsonNode metric(double[] forks, String unit) {
        ObjectNode m = JSON.createObjectNode();
        m.put("score", (forks[0] + forks[1]) / 2);
        m.put("scoreError", "NaN");
        m.putArray("scoreConfidence").add(forks[0]).add(forks[1]);
        m.put("scoreUnit", unit);
        ArrayNode raw = m.putArray("rawData");
        for (double f : forks) {
            raw.addArray().add(f).add(f);
        }
        return m;
    }

    private static List<String> tailLines(String text) {
        return text.lines().filter(l -> l.startsWith("tail ")).toList();
    }

    @Test
    void theCauseThatMovedBeyondItsIntervalIsNamedOneLineACell() throws Exception {
        Path base = run("base", List.of(new double[] {31.0, 31.4}, new double[] {50, 52}), List.of(
                Map.of("gc", new double[] {10, 12}, "unexplained", new double[] {90, 88}),
                Map.of("descheduled", new double[] {10, 40}, "unexplained", new double[] {90, 60})));
        Path head = run("head", List.of(new double[] {44.0, 44.0}, new double[] {51, 53}), List.of(
                Map.of("gc", new double[] {62, 64}, "unexplained", new double[] {38, 36}),
                Map.of("descheduled", new double[] {20, 50}, "unexplained", new double[] {80, 50})));
        List<String> lines = tailLines(compare(base, head));
        assertThat(lines).hasSize(2);
        // 52 points, Welch over 2 forks a side at 99.3 % (95 % over the cell's 7 shares): t(df 2) 11.77 x se 1.41
        assertThat(lines.get(0)).isEqualTo("tail    infer batchSize=1: p99 31.2 -> 44.0 ms; GC pauses 11 % -> 63 %"
                + " (+52 points, 99.3 % interval +35 to +69 over 2 and 2 forks); unexplained 89 % -> 37 %"
                + " (-52 points, 99.3 % interval -69 to -35 over 2 and 2 forks)");
        // 10 points with se 21.2: t 11.77 makes it -240 to +260, noise
        assertThat(lines.get(1)).isEqualTo("tail    infer batchSize=2: p99 51.0 -> 52.0 ms; no cause moved beyond"
                + " noise (largest: descheduled 25 % -> 35 % (+10 points, 99.3 % interval -240 to +260 over 2 and 2"
                + " forks))");
    }

    @Test
    void noLineWhereTheSharesAreTheSameOrNoRunHasATail() throws Exception {
        List<Map<String, double[]>> shares = List.of(Map.of("gc", new double[] {10, 11}),
                Map.of("wait", new double[] {5, 6}));
        Path base = run("base", List.of(new double[] {31, 31}, new double[] {50, 50}), shares);
        Path same = run("same", List.of(new double[] {33, 33}, new double[] {50, 50}), shares);
        assertThat(tailLines(compare(base, same))).isEmpty();
        Path plain = Files.createDirectories(dir.resolve("plain"));
        Files.copy(Path.of("src/test/resources/jmh/sample-time.json"), RunLayout.of(plain).result());
        assertThat(tailLines(compare(plain, plain))).isEmpty();
        assertThat(tailLines(compare(base, plain))).as("one side without --tail").isEmpty();
    }
}
