package dev.inferbench.cli;

import dev.inferbench.results.RunLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

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

    @Test
    void sameRunTwiceFromTwoForksCannotTellAndSaysSoWithItsOwnExitCode(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a");
        Path b = runFolder(dir, "b");
        assertThat(run("compare", a.toString(), b.toString(), "--fail-on-regression")).isEqualTo(Main.UNDECIDED);
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("ratio 99% CI").contains("+0.0%").contains("can't tell").doesNotContain("FAIL")
                .contains("could not tell: infer batchSize=1 ")
                .containsPattern("this comparison sees changes of \\d+(x| %) or more \\(95 % power\\); run longer or use --turns")
                .contains("inferbench: could not tell in 2 of the gate's 2 rows")
                .contains("the two sides as independent samples (Welch)");
        out.reset();
        assertThat(run("compare", a.toString(), b.toString(), "--fail-on-regression", "--inconclusive", "pass")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("could not tell: infer batchSize=1 ");
        // without a gate, compare is a report: it says what it could not tell, and exits 0
        out.reset();
        assertThat(run("compare", a.toString(), b.toString())).isZero();
        assertThat(run("compare", a.toString(), b.toString(), "--inconclusive", "maybe")).isEqualTo(Main.BAD_INPUT);
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
