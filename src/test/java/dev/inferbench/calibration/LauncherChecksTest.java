package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The checks that drive runs of the jar from the launcher: memory-plateau's growth rule, kill-resume's counts with a
 * fake run that lands forks, tpot-crosscheck's arguments, rounds and summary with fake sides.
 */
class LauncherChecksTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);

    private String printed() {
        return text.toString(StandardCharsets.UTF_8);
    }

    /** One cell of {@code forks} forks of two iterations, with mem.rss per iteration. */
    static String jmhResult(int forks, String rss) {
        StringBuilder raw = new StringBuilder();
        for (int f = 0; f < forks; f++) {
            raw.append(f == 0 ? "" : ",").append("[1.0, 1.1]");
        }
        return "[{\"jmhVersion\": \"1.37\", \"benchmark\": \"dev.inferbench.bench.InferenceBenchmark.infer\","
                + " \"mode\": \"avgt\", \"threads\": 1, \"forks\": " + forks + ", \"params\": {\"model\": \"mlp-tiny\"},"
                + " \"primaryMetric\": {\"score\": 1.05, \"scoreError\": \"NaN\", \"scoreConfidence\": [1.0, 1.1],"
                + " \"scoreUnit\": \"ms/op\", \"rawData\": [" + raw + "]}, \"secondaryMetrics\": {"
                + (rss == null ? "" : "\"mem.rss\": {\"score\": 1, \"scoreError\": \"NaN\", \"scoreConfidence\": [1, 1],"
                + " \"scoreUnit\": \"MB\", \"rawData\": [" + rss + "]}, \"mem.rss.peak.fork\": {\"score\": 975.0,"
                + " \"scoreError\": \"NaN\", \"scoreConfidence\": [975, 975], \"scoreUnit\": \"MB\", \"rawData\":"
                + " [[975.0]]}") + "}}]";
    }

    @Test
    void memoryPlateauFailsOnGrowthAfterTheFirstMeasuredIteration() throws Exception {
        // the first measured iteration may still settle: 600 -> 683.5 is not counted, 683.5 -> 684.6 is
        assertThat(MemoryPlateau.verdict(new double[] {600, 683.5, 684.0, 684.6}, 975, 16, out)).isZero();
        assertThat(printed()).contains("after the first measured iteration: +1.1 MiB over 2 iterations (bound 16 MiB);"
                + " peak 975.0 MiB");
        assertThat(MemoryPlateau.verdict(new double[] {2157, 2200, 2400, 2619}, 3673, 16, out)).isEqualTo(1);
    }

    @Test
    void memoryPlateauReadsTheForksRunFolder() throws Exception {
        List<List<String>> commands = new ArrayList<>();
        Child fake = (command, dir, log) -> {
            commands.add(command);
            Path run = Path.of(command.get(command.indexOf("--run-dir") + 1));
            try {
                Files.createDirectories(run);
                Files.writeString(run.resolve("jmh-result.json"), jmhResult(1, "[700.0, 710.0, 740.0]"));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            return new Child.Started() {
                public void kill() {
                }

                public int waitFor() {
                    return 0;
                }
            };
        };
        int code = MemoryPlateau.check(Path.of("b.jar"), List.of("--iterations", "3", "--bound-mib", "20", "-p",
                "model=mlp-tiny"), fake, out);
        assertThat(code).as(printed()).isEqualTo(1); // +30 MiB after the first measured iteration, bound 20
        assertThat(commands.get(0)).contains("InferenceBenchmark", "model=mlp-tiny").containsSequence("-i", "3")
                .containsSequence("-f", "1");
        assertThatThrownBy(() -> MemoryPlateau.check(Path.of("b.jar"), List.of("--iterations", "2"), fake, out))
                .isInstanceOf(BenchException.class).hasMessageContaining("must be 3 or more");
    }

    @Test
    void killResumeCountsTheForksBeforeAndAfterEachKill() throws Exception {
        List<String> events = new ArrayList<>();
        List<Double> waits = new ArrayList<>();
        int[] landed = {0};
        Child fake = (command, dir, log) -> {
            Path run = tmp.resolve("run");
            boolean resume = command.contains("--resume");
            events.add(resume ? "resume" : "start");
            return new Child.Started() {
                public void kill() {
                    events.add("kill");
                }

                public int waitFor() {
                    try { // each start lands one more fork before it is killed, and the last one lands the rest
                        landed[0] = events.get(events.size() - 1).equals("kill") ? landed[0] + 1 : 6;
                        Path forks = Files.createDirectories(run.resolve("forks").resolve("cell-0"));
                        for (int i = 0; i < landed[0]; i++) {
                            Files.writeString(forks.resolve("fork-" + i + ".record.json"), "{}");
                        }
                        Files.writeString(run.resolve("jmh-result.json"), jmhResult(landed[0], null));
                    } catch (java.io.IOException e) {
                        throw new AssertionError(e);
                    }
                    return 0;
                }
            };
        };
        int code = KillResume.check(Path.of("b.jar"), List.of("2", "--seed", "7", "-p", "model=mlp-tiny"), fake,
                waits::add, tmp, out);
        assertThat(code).as(printed()).isZero();
        assertThat(events).containsExactly("start", "kill", "resume", "kill", "resume");
        assertThat(waits).hasSize(4).allMatch(w -> w == 0.5 || (w >= 2 && w <= 7));
        assertThat(printed()).contains("resumed to the end (exit 0): 6 forks landed")
                .contains("model=mlp-tiny forks = 6  iterations per fork = [2, 2, 2, 2, 2, 2]");
        // the second kill: 1 fork before it, 2 after, jmh-result.json counting 2
        assertThat(printed().lines().filter(l -> l.startsWith("2 ")).findFirst().orElseThrow())
                .matches("2\\s+\\d\\s+1\\s+2\\s+2");
    }

    @Test
    void tpotCrosscheckRefusesBadArguments() {
        for (List<String> bad : List.of(List.<String>of(), List.of("--against", "py", "m.onnx"),
                List.of("m.onnx", "2"), List.of("m.onnx", "5", "32", "1"), List.of("m.onnx", "x"))) {
            assertThatThrownBy(() -> TpotCrosscheck.parse(bad)).as(bad.toString()).isInstanceOf(BenchException.class);
        }
    }

    @Test
    void tpotCrosscheckInterleavesAndSummarisesByMedians() throws Exception {
        List<String> order = new ArrayList<>();
        double[] other = {1.0, 1.2, 0.9};
        double[] java = {1.1, 1.2, 1.08};
        TpotCrosscheck.Side o = round -> {
            order.add("c" + round);
            return new TpotCrosscheck.Figures(other[round - 1], other[round - 1], 0.02);
        };
        TpotCrosscheck.Side j = round -> {
            order.add("java" + round);
            return new TpotCrosscheck.Figures(java[round - 1], java[round - 1] - 0.01, 0.01);
        };
        TpotCrosscheck.rounds(TpotCrosscheck.parse(List.of("--against", "c", "m.onnx", "3")), o, j, out);
        assertThat(order).containsExactly("c1", "java1", "java2", "c2", "c3", "java3");
        // ratios 1.1, 1.0, 1.2: median 1.1; medians 1.0 and 1.1: ratio 1.1
        assertThat(printed()).contains("round 2 (java, c): TPOT c 1.2000 ms, harness 1.2000 ms, harness/c 1.0000")
                .contains("TPOT, mean over the measured time, median over 3 rounds: c 1.0000 ms, harness 1.1000 ms\n"
                        + "  harness / c: 1.1000 (median of the rounds' ratios; range 1.0000-1.2000), ratio of the"
                        + " medians 1.1000")
                // less the argmax: c 0.98, 1.18, 0.88; harness 1.09, 1.19, 1.07
                .contains("the step less its argmax (TPOT mean - argmax), median over 3 rounds: c 0.9800 ms, harness"
                        + " 1.0900 ms");
    }

    @Test
    void theLoopsOutputGoesToItsJsonAndItsNotesToTheLog() {
        assertThat(TpotSides.withArgs(List.of("/l/loop", "a b"), Path.of("/w/c-1.log"), Path.of("/w/c-1.json")))
                .containsExactly("sh", "-c", "j=$1; l=$2; shift 2; exec \"$@\" >\"$j\" 2>\"$l\"", "sh", "/w/c-1.json",
                        "/w/c-1.log", "/l/loop", "a b");
    }
}
