package dev.inferbench.report;

import org.junit.jupiter.api.Assumptions;
import java.util.regex.Pattern;
import java.util.ArrayList;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.BenchException;
import dev.inferbench.results.jmh.JmhJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Golden files for every text format of the report of one run folder (two InferenceBenchmark cells in SampleTime,
 * one avgt cell with gc metrics and no model param), the same bytes under a German default locale. The HTML golden
 * file is the page without plots (XChart's SVG is checked in the browser test).
 */
class ReportsTest {
    static final String[] GOLDEN = {"report.md", "report.html", "report.csv", "gab-smaller-is-better.json",
            "gab-bigger-is-better.json", "bencher.json"};

    @TempDir
    Path out;

    static Path runA() throws URISyntaxException {
        return Path.of(ReportsTest.class.getResource("/report/run-a").toURI());
    }

    @ParameterizedTest
    @ValueSource(strings = {"en-US", "de-DE"})
    void everyFormatMatchesItsGoldenFile(String locale) throws Exception {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag(locale));
        try {
            Reports.write(List.of(runA()), out, EnumSet.complementOf(EnumSet.of(Reports.Format.PLOTS)));
        } finally {
            Locale.setDefault(before);
        }
        if (Boolean.getBoolean("golden.update")) { // as ComparerTest's: review the diff
            for (String name : GOLDEN) { // every file before the first comparison fails
                Files.writeString(Path.of("src/test/resources/report/golden", name), Files.readString(out.resolve(name)));
            }
        }
        for (String name : GOLDEN) {
            assertThat(Files.readString(out.resolve(name))).as(name).isEqualTo(golden(name));
        }
    }

    @Test
    void jmhExportIsTheSameJmhFile() throws Exception {
        Reports.write(List.of(runA()), out, EnumSet.of(Reports.Format.JMH));
        assertThat(JmhJson.read(out.resolve("jmh-visualizer.json")))
                .isEqualTo(JmhJson.read(runA().resolve("jmh-result.json")));
        // JMH Visualizer lists a secondary metric only under its pre-1.30 name, with the '·' prefix
        JsonNode export = new ObjectMapper()
                .readTree(out.resolve("jmh-visualizer.json").toFile());
        List<String> names = new ArrayList<>();
        export.forEach(cell -> cell.get("secondaryMetrics").fieldNames().forEachRemaining(names::add));
        assertThat(names).isNotEmpty().contains("\u00b7gc.alloc.rate.norm").allMatch(n -> n.startsWith("\u00b7"));
        // the numbers are copied as JMH wrote them, digit for digit
        Pattern number = Pattern.compile("-?\\d+\\.\\d+(?:[eE][-+]?\\d+)?");
        assertThat(number.matcher(Files.readString(out.resolve("jmh-visualizer.json"))).results().map(r -> r.group()).toList())
                .isEqualTo(number.matcher(Files.readString(runA().resolve("jmh-result.json"))).results().map(r -> r.group()).toList())
                .hasSizeGreaterThan(100);
    }

    @Test
    void markdownGroupsByModelMarksTheBestAndLeavesOutColumnsNoCellHas() throws Exception {
        Reports.write(List.of(runA()), out, EnumSet.of(Reports.Format.MD));
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("## resnet-tiny", "## FaultInjectionBenchmark.call", "p50 (µs)", "mean (ns)",
                "| **165.1** |", "| **4212** |", "gc.alloc.rate.norm (B/op)", "cpu.flags | avx2 avx512f");
        String resnetTable = md.substring(md.indexOf("## resnet-tiny"), md.indexOf("## FaultInjection"));
        assertThat(resnetTable).doesNotContain("gc.alloc", "fault", "atIteration");
    }

    @Test
    void aFileThatCannotBeWrittenIsOneLineWhileTheOthersAreWrittenSideBySide() throws Exception {
        Files.createDirectories(out.resolve("report.html")); // a folder where the HTML report should go
        assertThatThrownBy(() -> Reports.write(List.of(runA()), out, EnumSet.complementOf(EnumSet.of(Reports.Format.PLOTS))))
                .isInstanceOf(BenchException.class)
                .hasMessageStartingWith("cannot write the report to " + out + ": ")
                .hasMessageEndingWith("; expected a writable folder (-o DIR)")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(out.resolve("report.md")).isRegularFile();
    }

    /**
     * A full disk: every text format must fail with one line, not claim a report it could not write. The disk is a
     * tmpfs of 64 kB, filled; where no tmpfs may be mounted (not root), the test is skipped.
     */
    @ParameterizedTest
    @ValueSource(strings = {"md", "html", "csv"})
    void aFullDiskIsReportedNotSwallowed(String format) throws Exception {
        Path disk = Files.createDirectories(out.resolve("disk"));
        Assumptions.assumeTrue(exec("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", disk.toString()) == 0,
                "needs a tmpfs mount (root)");
        try {
            try (var fill = Files.newOutputStream(disk.resolve("fill"))) {
                byte[] block = new byte[4096];
                for (int i = 0; i < 64; i++) {
                    fill.write(block);
                }
            } catch (IOException full) {
                // the disk is full now, as wanted
            }
            assertThatThrownBy(() -> Reports.write(List.of(runA()), disk, Reports.parseFormats(format)))
                    .isInstanceOf(BenchException.class)
                    .hasMessageStartingWith("cannot write the report to " + disk + ": ")
                    .hasMessageContaining("No space left on device");
            assertThat(disk.resolve("report." + format)).doesNotExist();
        } finally {
            exec("umount", disk.toString());
        }
    }

    /** A report file that is a link (a received folder's report.md pointing elsewhere) is refused, not written. */
    @Test
    void aReportFileThatIsALinkIsNotWrittenThrough() throws Exception {
        Files.createDirectories(out);
        Path outside = Files.writeString(out.resolveSibling(out.getFileName() + "-outside.txt"), "kept");
        Files.createSymbolicLink(out.resolve("report.md"), outside);
        assertThatThrownBy(() -> Reports.write(List.of(runA()), out, Reports.parseFormats("md")))
                .isInstanceOf(BenchException.class).hasMessageContaining("a symbolic link");
        assertThat(outside).hasContent("kept");
    }

    private static int exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @Test
    void unknownFormatIsOneLine() {
        assertThatThrownBy(() -> Reports.parseFormats("md,pdf")).isInstanceOf(BenchException.class)
                .hasMessage("unknown report format 'pdf'; expected one of: md, html, csv, gab, bmf, jmh, plots");
    }

    @Test
    void unwritableOutputIsOneLine() throws Exception {
        Path file = Files.writeString(out.resolve("a-file"), "x");
        assertThatThrownBy(() -> Reports.write(List.of(runA()), file.resolve("report"), EnumSet.of(Reports.Format.MD)))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("cannot write the report to ");
    }

    static String golden(String name) throws IOException {
        try (InputStream in = ReportsTest.class.getResourceAsStream("/report/golden/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
