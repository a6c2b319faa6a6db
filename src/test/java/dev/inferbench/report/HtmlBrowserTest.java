package dev.inferbench.report;

import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The HTML report in a real headless browser (Debian's chromium; skipped only where it is not installed): after
 * its script ran, the tables and SVG plots are in the DOM, and a screenshot shows a page, not a blank.
 */
class HtmlBrowserTest {
    @TempDir
    static Path dir;
    static Path chromium;
    static Path html;

    @BeforeAll
    static void report() throws Exception {
        chromium = Stream.of(System.getenv("PATH").split(File.pathSeparator))
                .flatMap(p -> Stream.of(Path.of(p, "chromium"), Path.of(p, "chromium-browser")))
                .filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(chromium != null, "chromium is not installed");
        Path out = dir.resolve("report");
        Reports.write(List.of(ReportsTest.runA()), out, EnumSet.of(Reports.Format.HTML, Reports.Format.PLOTS));
        html = out.resolve("report.html");
    }

    private static String chromium(String... args) throws Exception {
        return chromium(html, args);
    }

    private static String chromium(Path page, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + Files.createTempDirectory(dir, "profile")));
        cmd.addAll(List.of(args));
        cmd.add(page.toUri().toString());
        Path log = Files.createTempFile(dir, "chromium", ".log");
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        byte[] stdout = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(p.exitValue()).as("chromium exit; log: " + Files.readString(log)).isZero();
        return new String(stdout, StandardCharsets.UTF_8);
    }

    @Test
    void tablesAndPlotsAreInTheDomAfterTheScriptRan() throws Exception {
        String dom = chromium("--dump-dom");
        assertThat(dom).contains("data-ready=\"true\"");
        assertThat(Pattern.compile("<table id=\"cells-\\d\" class=\"cells[ \"]").matcher(dom).results().count()).isEqualTo(2);
        assertThat(dom.split("<svg", -1).length - 1).isGreaterThanOrEqualTo(3);
        assertThat(dom).contains("id=\"plot-resnet-tiny-latency-vs-batch\"", "id=\"filter\"");
    }

    /**
     * A group not open by default (the gc metrics) is hidden when the page opens, shown by its checkbox; latency stays
     * shown. The page is the report with a probe script after its own, which reads the computed styles.
     */
    @Test
    void foldedGroupsAreHiddenAndTheirCheckboxShowsThem() throws Exception {
        Path probe = html.resolveSibling("probe.html");
        Files.writeString(probe, Files.readString(html).replace("</body>", """
                <script>
                var gc = document.querySelector("th.g-cpu");
                var before = getComputedStyle(gc).display;
                document.querySelector("input[data-group=cpu]").click();
                var after = getComputedStyle(gc).display;
                var latency = getComputedStyle(document.querySelector("td.g-latency")).display;
                document.body.setAttribute("data-fold", before + " " + after + " " + latency);
                </script>
                </body>"""));
        assertThat(chromium(probe, "--dump-dom")).contains("data-fold=\"none table-cell table-cell\"");
    }

    @Test
    void screenshotIsNotBlank() throws Exception {
        Path png = dir.resolve("screenshot.png");
        chromium("--screenshot=" + png, "--window-size=1400,1000", "--hide-scrollbars");
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1400);
        Set<Integer> colours = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                colours.add(image.getRGB(x, y));
            }
        }
        assertThat(colours.size()).as("distinct colours").isGreaterThan(50);
        Files.copy(png, Path.of("target", "report-screenshot.png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
