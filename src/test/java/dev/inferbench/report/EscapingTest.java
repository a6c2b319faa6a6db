package dev.inferbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.RunReader;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A model name with HTML, Markdown and CSV metacharacters shows as written, and inertly, in every format. */
class EscapingTest {
    static final String EVIL = "<script>alert(\"x\")</script>|a,b 'q'\nnext";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    Path run;
    Path out;

    @BeforeEach
    void evilRun() throws Exception {
        run = Files.createDirectories(dir.resolve("run"));
        JsonNode cells = JSON.readTree(ReportsTest.runA().resolve("jmh-result.json").toFile());
        for (JsonNode c : cells) {
            if (c.path("params").has("model")) {
                ((ObjectNode) c.get("params")).put("model", EVIL);
            }
        }
        JSON.writeValue(run.resolve("jmh-result.json").toFile(), cells);
        out = dir.resolve("report");
        Reports.write(List.of(run), out, EnumSet.complementOf(EnumSet.of(Reports.Format.PLOTS)));
    }

    @Test
    void markdownKeepsTheTableAndShowsTheText() throws Exception {
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).doesNotContain("<script>").contains("&lt;script&gt;alert(\"x\")&lt;/script&gt;\\|a,b 'q'<br>next");
        String table = md.substring(md.indexOf("## &lt;script"), md.indexOf("## FaultInjection"));
        // header, rule and two rows: no line broken by the newline, every row with the header's column count
        List<String> lines = table.lines().filter(l -> l.startsWith("|")).toList();
        assertThat(lines).hasSize(4);
        long columns = unescapedPipes(lines.get(0));
        assertThat(lines).allSatisfy(l -> assertThat(unescapedPipes(l)).isEqualTo(columns));
    }

    @Test
    void htmlShowsTheTextAsText() throws Exception {
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).doesNotContain("<script>alert")
                .contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;|a,b &#39;q&#39;\nnext");
        assertThat(html.split("<script>", -1)).hasSize(2);
    }

    @Test
    void csvQuotesTheField() throws Exception {
        String csv = Files.readString(out.resolve("report.csv"));
        assertThat(csv).contains(",\"<script>alert(\"\"x\"\")</script>|a,b 'q'\nnext\",");
    }

    @Test
    void jsonExportsCarryTheExactText() throws Exception {
        assertThat(JSON.readTree(out.resolve("bencher.json").toFile()).fieldNames().next()).contains("model=" + EVIL);
        assertThat(JSON.readTree(out.resolve("gab-bigger-is-better.json").toFile()).get(0).get("name").asText())
                .contains("model=" + EVIL);
        assertThat(JSON.readTree(out.resolve("jmh-visualizer.json").toFile()).get(0).at("/params/model").asText())
                .isEqualTo(EVIL);
    }

    @Test
    void compareMarkdownKeepsTheTable() throws Exception {
        List<CellResults> cells = RunReader.read(run);
        String md = CompareTable.markdown(Comparer.compare(cells, cells, 0.03, Verdict.CONFIDENCE));
        assertThat(md).doesNotContain("<script>").contains("&lt;script&gt;alert(\"x\")&lt;/script&gt;\\|a,b 'q'<br>next");
        List<String> lines = md.lines().filter(l -> l.startsWith("|")).toList();
        assertThat(lines).hasSizeGreaterThan(2);
        long columns = unescapedPipes(lines.get(0));
        assertThat(lines).allSatisfy(l -> assertThat(unescapedPipes(l)).isEqualTo(columns));
    }

    @Test
    void compareHtmlShowsTheTextAsText() throws Exception {
        List<CellResults> cells = RunReader.read(run);
        StringWriter w = new StringWriter();
        CompareHtml.write(Comparer.compare(cells, cells, 0.03, Verdict.CONFIDENCE), EVIL, "head", w);
        String html = w.toString();
        assertThat(html).doesNotContain("<script>alert")
                .contains("<p>Baseline: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;|a,b &#39;q&#39;\nnext; candidate: head.</p>")
                .contains("<td>infer batchSize=1 device=cpu engine=ort model=&lt;script&gt;alert(&quot;x&quot;)");
        assertThat(html.split("<script>", -1)).hasSize(2);
    }

    private static long unescapedPipes(String line) {
        return line.replace("\\|", "").chars().filter(c -> c == '|').count();
    }
}
