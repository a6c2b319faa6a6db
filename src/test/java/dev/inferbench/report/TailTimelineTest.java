package dev.inferbench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's "slowest calls" section, from a fixture {@code slow-calls.json}: three slow calls and seven episodes,
 * one of a cause the report does not know. Each call is a bar, each episode of a known cause a band on its lane (the
 * wait that began before the first iteration clipped to the axis), the descheduled lane has a band only for the call
 * that was given that cause, and every bar and band has a tooltip. No section where no fork has the file.
 */
class TailTimelineTest {
    private static final String CELL =
            "InferenceBenchmark.infer-sample-batchSize=2-device=cpu-engine=ort-model=resnet-tiny-threads=0";

    @TempDir
    Path dir;

    private Path run() throws Exception {
        Path run = Files.createDirectories(dir.resolve("run"));
        Files.copy(ReportsTest.runA().resolve("jmh-result.json"), run.resolve("jmh-result.json"));
        return run;
    }

    private static Path fixture() throws Exception {
        return Path.of(TailTimelineTest.class.getResource("/report/tail/slow-calls.json").toURI());
    }

    @Test
    void aBarPerSlowCallAndABandPerEpisodeOnItsCausesLane() throws Exception {
        Path run = run();
        Path fork = Files.createDirectories(run.resolve("tail").resolve(CELL).resolve("fork-1"));
        Files.copy(fixture(), fork.resolve("slow-calls.json"));
        // a damaged file of another fork is named, and the readable fork still drawn
        Path other = Files.createDirectories(run.resolve("tail").resolve(CELL).resolve("fork-2"));
        Files.writeString(other.resolve("slow-calls.json"), "{\"slowCalls\": [");
        Reports.writeAll(run);
        String html = Files.readString(run.resolve("report/report.html"));

        assertThat(html).contains("<h2 id=\"slowest-calls\">Slowest calls</h2>",
                "<h3>InferenceBenchmark.infer model=resnet-tiny engine=ort batchSize=2</h3>",
                "fork 1 (of 1 with slow calls): slowest call 40.0 ms, p99 12.5 ms; 3 slow calls and 7 JVM episodes");
        assertThat(html).containsPattern("<p class=\"tail-problem\">cannot read [^<]*fork-2[^<]*slow-calls.json");

        List<Document> svgs = svgs(html);
        assertThat(svgs).as("the timeline and the close-ups").hasSize(2);
        Document timeline = svgs.get(0);
        assertThat(rects(timeline, "call")).hasSize(3);
        assertThat(markCounts(timeline, "mark ")).isEqualTo(new TreeMap<>(Map.of("gc", 2, "safepoint", 1, "wait", 1,
                "deopt", 1, "compile", 1, "descheduled", 1)));
        for (Element r : rects(timeline, null)) {
            if (!r.getAttribute("class").equals("legend")) {
                assertThat(r.getElementsByTagName("title").getLength()).as("tooltip of " + r.getAttribute("class"))
                        .isEqualTo(1);
            }
        }
        String gcCall = title(rects(timeline, "call"), "40.0 ms call");
        assertThat(gcCall).contains("at 100.0 ms", "main cause: GC pauses", "GC pauses: 30.0 ms overlapped,"
                + " G1CollectFull, GC Pause", "descheduled: 1.00 ms overlapped (not given)", "off its CPU 31.0 ms");
        String gcBand = title(rects(timeline, "mark gc"), "from 105.0 ms");
        assertThat(gcBand).isEqualTo("GC pauses: GC Pause, 30.0 ms from 105.0 ms (every thread); during the 40.0 ms"
                + " call at 100.0 ms (overlap 30.0 ms)");
        Element wait = rects(timeline, "mark wait").get(0);
        Element window = rects(timeline, "window").get(0);
        assertThat(Double.parseDouble(wait.getAttribute("x"))).as("a wait from before the axis starts at 0")
                .isEqualTo(Double.parseDouble(window.getAttribute("x")));

        Document close = svgs.get(1);
        assertThat(rects(close, "close-call")).hasSize(3);
        // the 40 ms call: its GC pause and compilation; the 20 ms one: its descheduling; the 13 ms one: its deopt
        assertThat(markCounts(close, "close-mark ")).isEqualTo(new TreeMap<>(Map.of("gc", 1, "compile", 1,
                "descheduled", 1, "deopt", 1)));
        assertThat(html).contains("no cause overlapped a tenth of it");
    }

    @Test
    void aForkOfThousandsOfSlowCallsDrawsItsSlowest() throws Exception {
        Path run = run();
        Path fork = Files.createDirectories(run.resolve("tail").resolve(CELL).resolve("fork-1"));
        int many = TailTimeline.MOST_CALLS + 500;
        StringBuilder calls = new StringBuilder();
        for (int i = 0; i < many; i++) {
            // call i takes 1 + i µs: the slowest are the last ones written
            calls.append(i == 0 ? "" : ",").append("{\"startMs\": ").append(i).append(", \"ms\": ")
                    .append(0.001 * (1 + i)).append(", \"thread\": 1, \"main\": \"unexplained\", \"causes\": {}}");
        }
        Files.writeString(fork.resolve("slow-calls.json"), "{\"figures\": {\"tail.p99\": 0.002}, \"windows\": [[0, "
                + many + "]], \"slowCalls\": [" + calls + "], \"episodes\": []}");
        Reports.writeAll(run);
        String html = Files.readString(run.resolve("report/report.html"));
        assertThat(html).contains("the slowest " + TailTimeline.MOST_CALLS + " of " + many + " slow calls");
        Document timeline = svgs(html).get(0);
        assertThat(rects(timeline, "call")).hasSize(TailTimeline.MOST_CALLS);
        // the fastest drawn is call 500, of 501 µs
        assertThat(rects(timeline, "call").stream().map(r -> r.getElementsByTagName("title").item(0).getTextContent()))
                .anyMatch(t -> t.startsWith("0.501 ms call at 500.0 ms")).noneMatch(t -> t.startsWith("0.500 ms call"));
    }

    @Test
    void noSectionWithoutSlowCalls() throws Exception {
        Path run = run();
        Files.createDirectories(run.resolve("tail").resolve(CELL).resolve("fork-1"));
        Reports.writeAll(run);
        String html = Files.readString(run.resolve("report/report.html"));
        assertThat(html).doesNotContain("Slowest calls", "class=\"timeline\"", "class=\"call\"");
    }

    private static List<Document> svgs(String html) throws Exception {
        List<Document> out = new ArrayList<>();
        Matcher m = Pattern.compile("<svg[^>]*class=\"timeline\".*?</svg>", Pattern.DOTALL).matcher(html);
        while (m.find()) {
            out.add(DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(m.group().getBytes(StandardCharsets.UTF_8))));
        }
        return out;
    }

    /** The rects of a class ({@code null}: all). */
    private static List<Element> rects(Document svg, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList all = svg.getElementsByTagName("rect");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (cls == null || e.getAttribute("class").equals(cls)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Map<String, Integer> markCounts(Document svg, String prefix) {
        Map<String, Integer> out = new TreeMap<>();
        for (Element e : rects(svg, null)) {
            if (e.getAttribute("class").startsWith(prefix)) {
                out.merge(e.getAttribute("class").substring(prefix.length()), 1, Integer::sum);
            }
        }
        return out;
    }

    private static String title(List<Element> rects, String containing) {
        return rects.stream().map(r -> r.getElementsByTagName("title").item(0).getTextContent())
                .filter(t -> t.contains(containing)).findFirst().orElseThrow(() -> new AssertionError(
                        "no tooltip with '" + containing + "'"));
    }
}
