package dev.inferbench.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** --flame on the built jar: a recording and flame graphs per fork, merged graphs per cell, and flame diff. */
class FlameIT {
    @TempDir
    static Path cwd;

    /**
     * Two runs of two forks each with flame graphs, and their diff. The first is also the README's flame graph
     * example as a newcomer sees it: a screen or two that ends with where each event's merged graph is, the time
     * event's first, and JMH's line about the recording names the file where it now is.
     */
    @Test
    void everyForkKeepsItsFlameGraphsAndTwoRunsDiff() throws Exception {
        String args = "-p model=mlp-tiny -p batchSize=1 -f 2 -wi 0 -i 1 -r 300ms --flame" + Jar.NO_SPARES + " --run-dir results/";
        Jar.Run a = Jar.run(cwd, args + "a");
        List<String> lines = Screen.fitsTwoScreens(a);
        List<String> merged = lines.stream().filter(l -> l.startsWith("inferbench: flame graph, forks merged: ")).toList();
        assertThat(merged).hasSizeGreaterThanOrEqualTo(2);
        assertThat(merged.get(0)).contains("merged-cpu-forward.html");
        assertThat(merged).anyMatch(l -> l.contains("merged-alloc-forward.html"));
        Screen.closingLinesNameFilesThatExist(cwd, lines);
        String log = Files.readString(cwd.resolve("results/a/jmh.log"));
        Matcher jfr = Pattern.compile("(\\S+\\.jfr)").matcher(log);
        assertThat(jfr.find()).as(log).isTrue();
        assertThat(cwd.resolve(jfr.group(1))).exists();

        Path cell;
        try (Stream<Path> s = Files.list(cwd.resolve("results/a/flames"))) {
            cell = s.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        for (int fork = 1; fork <= 2; fork++) {
            Path d = cell.resolve("fork-" + fork);
            assertThat(d.resolve("profile.jfr")).isNotEmptyFile();
            for (String f : new String[]{"cpu-forward.html", "cpu-reverse.html", "alloc-forward.html", "cpu.collapsed"}) {
                assertThat(d.resolve(f)).as(f).isNotEmptyFile();
            }
            Properties p = new Properties();
            try (var in = Files.newInputStream(d.resolve("profiler.properties"))) {
                p.load(in);
            }
            assertThat(p.getProperty("engine")).isIn("perf_events", "ctimer", "itimer");
            assertThat(a.out()).contains("cpu samples taken by " + p.getProperty("engine"));
        }
        assertThat(cell.resolve("merged-cpu-forward.html")).isNotEmptyFile();
        assertThat(Files.readString(cell.resolve("merged-cpu.collapsed")))
                .contains("dev/inferbench/engine/OrtEngine.run");

        // the second run of the diff: one fork is enough for its merged graph
        Jar.Run b = Jar.run(cwd, args.replace("-f 2", "-f 1") + "b");
        assertThat(b.code()).isZero();
        Jar.Run diff = Jar.run(cwd, "flame diff results/a results/b -o d");
        assertThat(diff.code()).as(diff.err()).isZero();
        assertThat(cwd.resolve("d").resolve(cell.getFileName()).resolve("diff-cpu.html")).isNotEmptyFile();
        Jar.Run none = Jar.run(cwd, "flame diff results/a models");
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err()).contains("models has no flame graphs, operator profile or results; expected a run folder");
    }

    /**
     * A model given by a long path: JMH's benchmark id holds the path, and the parameters after it (optLevel ...
     * values, about 90 characters) with the file's name make a last part longer than a file name may be (255). The
     * profiler writes into the fork's own folder, not one named after the id, so the recording is still made.
     */
    @Test
    void aModelByALongPathIsProfiled() throws Exception {
        Path dir = Files.createDirectories(cwd.resolve("exports"));
        Path model = dir.resolve("mlp-tiny-" + "x".repeat(175) + ".onnx");
        try (var o = Files.newOutputStream(model)) {
            new dev.inferbench.model.OnnxExporter(20261121).write(dev.inferbench.model.Mlp.tiny().build(), o);
        }
        assertThat(model.getFileName().toString().length() + "-optLevel-all-precision-fp32".length()).isGreaterThan(210);
        Jar.Run r = Jar.run(cwd, "-p model=" + model + " -p batchSize=1 -f 1 -wi 0 -i 1 -r 300ms --flame --run-dir long" + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out() + r.err()).doesNotContain("Could not open");
        Path cell;
        try (Stream<Path> s = Files.list(cwd.resolve("long/flames"))) {
            cell = s.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        assertThat(cell.resolve("fork-1/profile.jfr")).isNotEmptyFile();
        assertThat(cell.resolve("merged-cpu-forward.html")).isNotEmptyFile();
    }

    /**
     * --flame-events cpu,ops on a ms-scale cell: the fork records ORT's profile beside the samples, the fork's cpu
     * graph and the cell's merged one carry the operator frames, and ops-check.txt sets their shares beside ORT's.
     * djl-ort joins the same way: DJL's predictor calls the same OrtSession.run.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ort", "djl-ort"})
    void operatorFramesJoinTheCpuGraph(String engine) throws Exception {
        Jar.Run r = Jar.run(cwd, "-p model=resnet-tiny -p batchSize=1 -p engine=" + engine + " -f 1 -wi 0 -i 1 -r 1s "
                + "--flame-events cpu,ops --run-dir ops-" + engine + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("operator frames joined into").contains("largest difference, ORT kernel time");
        Path cell;
        try (Stream<Path> s = Files.list(cwd.resolve("ops-" + engine + "/flames"))) {
            cell = s.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        Path fork = cell.resolve("fork-1");
        Properties session = new Properties();
        try (var in = Files.newInputStream(fork.resolve("ort/session-1.properties"))) {
            session.load(in);
        }
        assertThat(fork.resolve("ort").resolve(session.getProperty("profile"))).isNotEmptyFile();
        String joined = Files.readString(fork.resolve("cpu.collapsed"));
        // workers: OperatorJoinTest; a tiny model's kernels may be too small for ORT to hand them any
        assertThat(joined).containsPattern("OrtSession\\.run[^ ]*;Conv[^;]*_\\[i];");
        assertThat(Files.readString(cell.resolve("merged-cpu.collapsed"))).containsPattern(";Conv[^;]*_\\[i];");
        assertThat(Files.readAllLines(fork.resolve("ops-check.txt")).get(0)).startsWith("operator");
    }
}
