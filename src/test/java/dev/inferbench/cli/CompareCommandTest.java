package dev.inferbench.cli;

import dev.inferbench.ExitCode;
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
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** The compare subcommand's exit codes and one-line errors, on a real JMH SampleTime file (2 forks, 2 cells). */
class CompareCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(args);
    }

    private static Path runFolder(Path dir, String name) throws IOException {
        Path run = Files.createDirectories(dir.resolve(name));
        Files.copy(Path.of("src/test/resources/jmh/sample-time.json"), RunLayout.of(run).result());
        return run;
    }

    /** A run folder of the same file with its cells changed: what a run whose forks of some cell all failed holds. */
    private static Path runFolder(Path dir, String name, Consumer<ArrayNode> change) throws IOException {
        Path run = runFolder(dir, name);
        ObjectMapper json = new ObjectMapper();
        ArrayNode cells = (ArrayNode) json.readTree(RunLayout.of(run).result().toFile());
        change.accept(cells);
        json.writeValue(RunLayout.of(run).result().toFile(), cells);
        return run;
    }

    /** Without the cell of batchSize 2. */
    private static void dropSecondCell(ArrayNode cells) {
        cells.remove(1);
    }

    private String text() {
        String t = out.toString(StandardCharsets.UTF_8);
        out.reset();
        return t;
    }

    @Test
    void aGatedCellThatHeadLacksCannotTellEvenWhereInconclusiveRowsPass(@TempDir Path dir) throws IOException {
        Path base = runFolder(dir, "base");
        Path head = runFolder(dir, "head", CompareCommandTest::dropSecondCell);
        assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--inconclusive", "pass"))
                .isEqualTo(ExitCode.UNDECIDED);
        assertThat(text()).contains("only in baseline: infer batchSize=2\n")
                .contains("cell infer batchSize=2: measured in BASE only; HEAD has no fork of it\n")
                .contains("inferbench: 1 gated cell or metric measured on one side only: no row, so no verdict; exit 3"
                        + " (--missing regression to fail where HEAD lacks what BASE measured)\n");
        assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--missing", "undecided"))
                .isEqualTo(ExitCode.UNDECIDED);
        text();
        // without the gate compare is a report: the cell is listed under the table, and nothing fails
        assertThat(run("compare", base.toString(), head.toString())).isZero();
        assertThat(text()).contains("only in baseline: infer batchSize=2").doesNotContain("HEAD has no fork");
    }

    @Test
    void aGatedCellOnlyHeadHasCannotTellWhateverMissingSays(@TempDir Path dir) throws IOException {
        Path base = runFolder(dir, "base", CompareCommandTest::dropSecondCell);
        Path head = runFolder(dir, "head");
        for (String missing : new String[]{"undecided", "regression"}) {
            assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--inconclusive",
                    "pass", "--missing", missing)).as(missing).isEqualTo(ExitCode.UNDECIDED);
            assertThat(text()).contains("cell infer batchSize=2: measured in HEAD only; BASE has no fork of it\n")
                    .contains("inferbench: 1 gated cell or metric measured on one side only: no row, so no verdict;"
                            + " exit 3\n");
        }
    }

    @Test
    void missingRegressionFailsWhereHeadLostAGatedCell(@TempDir Path dir) throws IOException {
        Path base = runFolder(dir, "base");
        Path head = runFolder(dir, "head", CompareCommandTest::dropSecondCell);
        assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--missing", "regression"))
                .isEqualTo(1);
        assertThat(text()).contains("cell infer batchSize=2: measured in BASE only; HEAD has no fork of it\n")
                .contains("inferbench: HEAD lacks 1 gated cell or metric that BASE measured; exit 1"
                        + " (--missing regression)\n");
        assertThat(run("compare", base.toString(), head.toString(), "--missing", "maybe")).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--missing 'maybe' is not a choice; expected"
                + " undecided (exit 3, the default) or regression (exit 1)");
    }

    @Test
    void aGatedMetricOneSideLacksCannotTell(@TempDir Path dir) throws IOException {
        Path base = runFolder(dir, "base");
        Path head = runFolder(dir, "head",
                cells -> ((ObjectNode) cells.get(0).get("secondaryMetrics")).remove("samples"));
        assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--inconclusive", "pass",
                "--gate", "primary,samples")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(text()).contains("gated metric samples missing in candidate: infer batchSize=1\n")
                .contains("cell infer batchSize=1: samples measured in BASE only; HEAD's forks of it have no samples\n")
                .contains("inferbench: 1 gated cell or metric measured on one side only");
        // in JSON the notes go to stderr, and the document says which side lacks it
        assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--inconclusive", "pass",
                "--gate", "samples", "--format", "json")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(text()).contains("\"metric\" : \"samples\",\n    \"lacking\" : \"candidate\"");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("HEAD's forks of it have no samples");
        // outside the gate a metric one side lacks is not compared, and fails nothing
        assertThat(run("compare", base.toString(), head.toString(), "--fail-on-regression", "--inconclusive", "pass"))
                .isZero();
        assertThat(text()).doesNotContain("samples missing").doesNotContain("measured in BASE only");
    }

    @Test
    void sameRunTwiceFromTwoForksCannotTellAndSaysSoWithItsOwnExitCode(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        Path b = runFolder(dir, "b");
        assertThat(run("compare", a.toString(), b.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("ratio 99% CI").contains("+0.0%").contains("can't tell").doesNotContain("FAIL")
                .contains("could not tell: infer batchSize=1 ")
                .containsPattern("this comparison sees changes of \\d+(x| %) or more \\(95 % power\\); rerun with"
                        + " compare-commits --turns \\(the two sides' iterations a second apart\\), or with more"
                        + " --forks\n")
                .contains("inferbench: could not tell in 2 of the gate's 2 rows")
                .contains("the two sides as independent samples (Welch)");
        out.reset();
        assertThat(run("compare", a.toString(), b.toString(), "--fail-on-regression", "--inconclusive", "pass")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("could not tell: infer batchSize=1 ")
                .doesNotContain("only in").doesNotContain("measured in").doesNotContain("missing in");
        out.reset();
        assertThat(run("compare", a.toString(), b.toString(), "--fail-on-regression", "--inconclusive", "pass",
                "--missing", "regression")).isZero();
        // without a gate, compare is a report: it says what it could not tell, and exits 0
        out.reset();
        assertThat(run("compare", a.toString(), b.toString())).isZero();
        assertThat(run("compare", a.toString(), b.toString(), "--inconclusive", "maybe")).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--inconclusive 'maybe' is not a choice");
    }

    @Test
    void failedThresholdExitsOne(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        assertThat(run("compare", a.toString(), a.toString(), "--threshold", "p99<1ns")).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("threshold FAIL p99<1ns");
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        assertThat(run("compare", a.toString())).isEqualTo(2);
        assertThat(run("compare", a.toString(), dir.resolve("missing").toString())).isEqualTo(2);
        assertThat(run("compare", a.toString(), a.toString(), "--format", "xml")).isEqualTo(2);
        assertThat(run("compare", a.toString(), a.toString(), "--threshold", "p99")).isEqualTo(2);
        assertThat(run("compare", a.toString(), a.toString(), "--min-effect", "300%")).isEqualTo(2);
        String e = err.toString(StandardCharsets.UTF_8);
        assertThat(e.lines().count()).isEqualTo(5);
        assertThat(e).contains("compare needs two run folders").contains("does not exist").contains("unknown format 'xml'");
    }

    @Test
    void jsonAndMarkdownFormats(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        assertThat(run("compare", a.toString(), a.toString(), "--format", "json")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("{").contains("\"verdict\"");
        out.reset();
        assertThat(run("compare", a.toString(), a.toString(), "--format", "md", "--precision", "50%")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("| cell |").contains("settled ");
    }

    @Test
    void htmlFormatIsOnePageWithNotesOnStderr(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        assertThat(run("compare", a.toString(), a.toString(), "--format", "html", "--precision", "50%")).isZero();
        String html = out.toString(StandardCharsets.UTF_8);
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</body></html>\n")
                .contains("<table class=\"cells\">", "<td class=\"inconclusive\">inconclusive</td>",
                        // the params that tell the cells apart shown, every param in the title and hidden for the filter
                        "<td><span title=\"infer batchSize=1 device=cpu engine=ort model=resnet-tiny threads=0\">"
                                + "infer batchSize=1</span><span hidden> infer batchSize=1 device=cpu")
                .doesNotContain("settled ");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("settled ");
    }
    /** An engine upgrade compared on one commit: each side's engines as its run recorded them, in text and JSON. */
    @Test
    void eachSidesEnginesAreSaidWhenTheyDiffer(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        Path b = runFolder(dir, "b");
        Files.writeString(RunLayout.of(a).environment(), "{\"engines\": {\"onnxruntime\": \"1.22.0\", \"djl\": \"0.36.0\"}}");
        Files.writeString(RunLayout.of(b).environment(), "{\"engines\": {\"onnxruntime\": \"1.29.0\", \"djl\": \"0.36.0\"}}");
        assertThat(run("compare", a.toString(), b.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("engines differ: onnxruntime 1.22.0 -> 1.29.0"
                + " (djl 0.36.0 on both sides), as each side's run loaded them (environment.json)\n");
        out.reset();
        assertThat(run("compare", a.toString(), b.toString(), "--format", "json")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"sides\" : {\n    \"base\" : {\n      \"engines\" : {\n"
                + "        \"onnxruntime\" : \"1.22.0\",");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("engines differ: onnxruntime 1.22.0 -> 1.29.0");
        out.reset();
        assertThat(run("compare", a.toString(), a.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("engines differ");
    }
}
