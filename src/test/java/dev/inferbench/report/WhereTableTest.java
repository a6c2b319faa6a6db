package dev.inferbench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.compare.Where;
import dev.inferbench.compare.WhereFrames;
import dev.inferbench.stats.Interval;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "where" text and JSON from a crafted table: the frame block names the groups whose interval excludes 0 with
 * their base, head, change and share of the call's change, sums the rest in one line that names them, shows the
 * JVM's figures (bytes as whole numbers) and the differential flame graph's path.
 */
class WhereTableTest {
    private static Where.Change change(String name, double base, double head, double lo, double hi, double share) {
        return change(name, base, head, lo, hi, new Interval(share, Double.NaN, Double.NaN, 0.99, 10));
    }

    private static Where.Change change(String name, double base, double head, double lo, double hi, Interval share) {
        return new Where.Change(name, "", base, head, new Interval(head - base, lo, hi, 0.99, 10), share);
    }

    private static Where where(WhereFrames frames) {
        Where.Change call = change("call", 0.1000, 0.1400, 0.0300, 0.0500, 1);
        Where.Change outside = new Where.Change(Where.OUTSIDE, "", 0.0300, 0.0700,
                new Interval(0.04, 0.03, 0.05, 0.99, 10), new Interval(1.0, 0.75, 1.25, 0.99, 10));
        return new Where(10, 0.95, call, List.of(outside), new Interval(1.0, 0.7, 1.4, 0.95, 10), frames);
    }

    private static WhereFrames frames(Path diff) {
        List<Where.Change> groups = List.of(
                change("binding + JNI", 0.0100, 0.0450, 0.0280, 0.0420, new Interval(0.875, 0.6951, 1.049, 0.99, 10)),
                change("ORT kernels", 0.0800, 0.0840, -0.0010, 0.0090, 0.1),
                change("inferbench", 0.0050, 0.0060, -0.0010, 0.0030, 0.025),
                change("GC threads", 0.0010, 0.0020, -0.0005, 0.0025, 0.025),
                change("JIT compiler", 0.0010, 0.0010, -0.0002, 0.0002, 0),
                change("other", 0.0030, 0.0030, -0.0003, 0.0003, 0));
        List<Where.Change> jvm = List.of(
                change(WhereFrames.BYTES, 4096, 69632, 65000, 66072, Double.NaN),
                change(WhereFrames.GC, 0.0010, 0.0020, -0.0005, 0.0025, Double.NaN),
                change(WhereFrames.JIT, 0.0001, 0.0001, -0.0001, 0.0001, Double.NaN));
        return new WhereFrames(10, 0.95, "perf_events", groups, jvm, List.of(), List.of(), diff);
    }

    @Test
    void theFrameBlockNamesTheGroupsThatMovedAndSumsTheRest() {
        String text = WhereTable.text("infer", where(frames(Path.of("head/where/flames-diff/cell.html"))));
        List<String> lines = text.lines().toList();

        int block = lines.indexOf(lines.stream().filter(l -> l.startsWith("  by frame group:")).findFirst().orElseThrow());
        assertThat(lines.get(block)).contains("(perf_events)").contains("share of the samples x the pass's call time");
        assertThat(lines.get(block + 1).split("\\s{2,}"))
                .containsExactly("", "frame group", "base ms", "head ms", "change ms", "of the call's change");
        assertThat(lines.get(block + 2).split("\\s{2,}"))
                .containsExactly("", "binding + JNI", "0.0100", "0.0450", "+0.0350 [+0.0280, +0.0420]",
                        "88 % [70, 105]");
        assertThat(lines.get(block + 3)).isEqualTo("  5 other groups (ORT kernels, inferbench, GC threads, JIT compiler,"
                + " other): +0.0060 ms together (15 %), none with an interval that excludes 0");
        assertThat(lines.get(block + 4).split("\\s{2,}")).containsExactly("", "the JVM in the passes", "base", "head",
                "change");
        assertThat(lines.get(block + 5).split("\\s{2,}"))
                .containsExactly("", WhereFrames.BYTES, "4096", "69632", "+65536 [+65000, +66072]");
        assertThat(lines.get(block + 6).split("\\s{2,}"))
                .containsExactly("", WhereFrames.GC, "0.0010", "0.0020", "+0.0010 [-0.0005, +0.0025]");
        assertThat(lines.get(block + 7).split("\\s{2,}"))
                .containsExactly("", WhereFrames.JIT, "0.0001", "0.0001", "+0.0000 [-0.0001, +0.0001]");
        assertThat(lines.get(block + 8)).isEqualTo("  differential flame graph of the passes (head against base; red:"
                + " hotter in head): head/where/flames-diff/cell.html");
        // the operator table comes first, unchanged
        assertThat(lines.get(0)).startsWith("where: infer, 10 pairs of operator passes");
        assertThat(block).isGreaterThan(2);
    }

    @Test
    void theNamedRowsShareComesWithItsIntervalUnderThem() {
        List<String> lines = WhereTable.text("infer", where(null)).lines().toList();

        assertThat(lines.get(2).split("\\s{2,}")).containsExactly("", "operator", "module", "base ms", "head ms",
                "change ms", "of the call's change");
        assertThat(lines.get(3).split("\\s{2,}"))
                .containsExactly("", Where.OUTSIDE, "0.0300", "0.0700", "+0.0400 [+0.0300, +0.0500]",
                        "100 % [75, 125]");
        assertThat(lines.get(4)).isEqualTo("  the named row: +0.0400 ms, 100 % [70 %, 140 %] of the call's change"
                + " (95 % interval, Fieller's: the call's change is uncertain too)");
    }

    @Test
    void aRowWhoseShareIsUnboundedSaysSo() {
        Where w = where(null);
        Where.Change outside = new Where.Change(Where.OUTSIDE, "", 0.0300, 0.0700,
                new Interval(0.04, 0.03, 0.05, 0.99, 10), new Interval(1.0, Double.NaN, Double.NaN, 0.99, 10));
        Where unbounded = new Where(w.pairs(), w.confidence(), w.call(), List.of(outside), w.namedShare(), null);

        assertThat(WhereTable.text("infer", unbounded).lines().toList().get(3).split("\\s{2,}"))
                .containsExactly("", Where.OUTSIDE, "0.0300", "0.0700", "+0.0400 [+0.0300, +0.0500]",
                        "100 % [unbounded]");
    }

    @Test
    void aShareWhoseIntervalIsUnboundedSaysWhy() {
        Where w = where(null);
        Where unbounded = new Where(w.pairs(), w.confidence(), w.call(), w.rows(),
                new Interval(1.0, Double.NaN, Double.NaN, 0.95, 10), null);

        assertThat(WhereTable.text("infer", unbounded)).contains("  the named row: +0.0400 ms, 100 % of the call's"
                + " change, its interval unbounded: the call's change holds 0 at 95 %");
    }

    @Test
    void aBlockThatNamesNothingSaysSoInOneLine() {
        List<Where.Change> flat = List.of(
                change("ORT kernels", 0.08, 0.081, -0.001, 0.003, 0.5),
                change("binding + JNI", 0.01, 0.011, -0.001, 0.003, 0.5));
        WhereFrames f = new WhereFrames(10, 0.95, "ctimer", flat, List.of(), List.of(), List.of(), null);
        String text = WhereTable.text("infer", where(f));

        assertThat(text).contains("  no frame group named: none has a change whose interval excludes 0 (2 groups,"
                + " +0.0020 ms together)");
        assertThat(text).doesNotContain("differential flame graph");
    }

    @Test
    void withoutSamplesThereIsNoBlock() {
        assertThat(WhereTable.text("infer", where(null))).doesNotContain("frame group");
    }

    @Test
    void theJsonHoldsEveryGroupAndTheJvmFigures() throws Exception {
        ObjectNode n = new ObjectMapper().createObjectNode();
        WhereTable.json(n, where(frames(Path.of("d.html"))));

        assertThat(n.at("/namedShare/estimate").asDouble()).isEqualTo(1.0);
        assertThat(n.at("/namedShare/lower").asDouble()).isEqualTo(0.7);
        assertThat(n.at("/namedShare/upper").asDouble()).isEqualTo(1.4);
        assertThat(n.at("/operators/0/share").asDouble()).isEqualTo(1.0);
        assertThat(n.at("/operators/0/shareInterval/lower").asDouble()).isEqualTo(0.75);
        assertThat(n.at("/operators/0/shareInterval/upper").asDouble()).isEqualTo(1.25);
        assertThat(n.at("/frames/groups/1/shareInterval/lower").isNull()).isTrue(); // unbounded: null, not a number
        assertThat(n.at("/frames/engine").asText()).isEqualTo("perf_events");
        assertThat(n.at("/frames/groups")).hasSize(6);
        assertThat(n.at("/frames/groups/0/group").asText()).isEqualTo("binding + JNI");
        assertThat(n.at("/frames/groups/0/named").asBoolean()).isTrue();
        assertThat(n.at("/frames/groups/1/named").asBoolean()).isFalse();
        assertThat(n.at("/frames/jvm/" + WhereFrames.BYTES + "/change/estimate").asDouble()).isEqualTo(65536);
        assertThat(n.at("/frames/flameDiff").asText()).isEqualTo("d.html");
    }
}
