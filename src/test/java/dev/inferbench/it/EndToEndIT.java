package dev.inferbench.it;

import java.io.InputStreamReader;
import java.io.BufferedReader;
import ai.onnx.proto.OnnxMl;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Runs the built target/benchmarks.jar as a user would, from an empty working directory (so the configuration
 * built into the jar is used and zoo models are generated), with very short iterations.
 */
class EndToEndIT {
    private static final String SHORT = "-f 1 -wi 1 -w 100ms -i 2 -r 200ms" + Jar.NO_SPARES;

    @TempDir
    static Path work;

    private static Jar.Run run(Path cwd, String args) throws IOException, InterruptedException {
        return Jar.run(cwd, args);
    }

    private static Path onlyRunFolder(Path cwd) throws IOException {
        try (Stream<Path> s = Files.list(cwd.resolve("results"))) {
            List<Path> dirs = s.filter(d -> !d.getFileName().toString().equals("history")).toList();
            assertThat(dirs).hasSize(1);
            return dirs.get(0);
        }
    }

    @Test
    void tinyModelRunWritesJsonWithPercentilesAndSamplesPerSecond() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("ok"));
        // one fork a cell, as planned: no spare for a fork that another test beside this one disturbed
        Jar.Run r = run(cwd, "-p model=mlp-tiny -p batchSize=1,4 " + SHORT);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("generating zoo model mlp-tiny").contains("inferbench summary");
        assertThat(cwd.resolve("models/mlp-tiny.onnx")).exists();

        Path runDir = onlyRunFolder(cwd);
        assertThat(runDir.getFileName().toString()).matches("\\d{8}-\\d{6}(-[0-9a-f]+)?");
        JsonNode cells = new ObjectMapper().readTree(runDir.resolve("jmh-result.json").toFile());
        assertThat(cells.size()).isEqualTo(2);
        for (JsonNode cell : cells) {
            assertThat(cell.get("mode").asText()).isEqualTo("sample");
            assertThat(cell.get("params").get("model").asText()).isEqualTo("mlp-tiny");
            JsonNode primary = cell.get("primaryMetric");
            assertThat(primary.get("scoreUnit").asText()).isEqualTo("ms/op");
            for (String pct : List.of("50.0", "90.0", "95.0", "99.0", "99.9")) {
                assertThat(primary.get("scorePercentiles").get(pct).asDouble()).as(pct).isPositive();
            }
            JsonNode samples = cell.get("secondaryMetrics").get("samples");
            assertThat(samples.get("scoreUnit").asText()).isEqualTo("samples/s");
            int batch = cell.get("params").get("batchSize").asInt();
            // samples/s is, per iteration, batch / that iteration's mean call time over every call (mean.all, ms),
            // averaged over iterations; SampleTime's histogram holds only the calls it timed
            JsonNode allCalls = cell.get("secondaryMetrics").get("mean.all");
            assertThat(allCalls.get("scoreUnit").asText()).isEqualTo("ms/op");
            List<Double> rates = new ArrayList<>();
            for (JsonNode fork : allCalls.get("rawData")) {
                for (JsonNode iteration : fork) {
                    rates.add(batch / iteration.asDouble() * 1000.0);
                }
            }
            double expected = rates.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            assertThat(samples.get("score").asDouble()).isCloseTo(expected, within(expected * 1e-6));

            // what every cell measures besides time, each with its unit and a plausible value
            JsonNode m = cell.get("secondaryMetrics");
            assertThat(m.get("mem.rss.peak").get("scoreUnit").asText()).isEqualTo("MiB");
            assertThat(m.get("mem.rss.peak").get("score").asDouble())
                    .isGreaterThan(m.get("mem.heap.used").get("score").asDouble())
                    .isGreaterThan(m.get("mem.native.model").get("score").asDouble());
            assertThat(m.get("mem.native.model").get("score").asDouble()).isPositive();
            assertThat(m.get("load.time").get("scoreUnit").asText()).isEqualTo("ms");
            assertThat(m.get("load.time").get("score").asDouble()).isPositive();
            assertThat(m.get("first.inference").get("score").asDouble()).isPositive();
            assertThat(m.get("model.params").get("score").asDouble()).isEqualTo(2410.0);
            assertThat(m.get("model.size").get("score").asDouble()).isBetween(0.005, 0.02); // 10.1 KiB
            // fc1's [batch, 32] floats and the ReLU's copy of them live at once: 256 bytes per sample (MiB)
            assertThat(m.get("mem.activation.peak").get("scoreUnit").asText()).isEqualTo("MiB");
            assertThat(m.get("mem.activation.peak").get("score").asDouble()).isEqualTo(batch * 256 / 1048576.0);
            assertThat(m.get("gc.alloc.rate.norm").get("scoreUnit").asText()).isEqualTo("B/op");
            // ORT's Java API allocates a little per call even with pinned outputs (its Result and map entries)
            assertThat(m.get("gc.alloc.rate.norm").get("score").asDouble()).isBetween(1.0, 4096.0);
            // the call's own bytes: ORT's binding for one input and one output, 368 B once C2 has compiled the call,
            // 456 B before (see docs/metrics.md); nothing of JMH's between calls
            assertThat(m.get("alloc.call").get("scoreUnit").asText()).isEqualTo("B/op");
            assertThat(m.get("alloc.call").get("score").asDouble()).isBetween(300.0, 600.0);
        }

        // activation memory per layer at each batch, for the report's per-layer section
        assertThat(runDir.resolve("layers/activation-mlp-tiny-b4-s128-fp32.json")).isNotEmptyFile();
        assertThat(r.out()).contains("activation memory of mlp-tiny at batch 4: peak 1.0 KiB while relu (Relu) runs");
        assertThat(runDir.resolve("report/report.md")).content().contains("## Per layer: mlp-tiny");

        String summary = Files.readString(runDir.resolve("summary.txt"), StandardCharsets.UTF_8);
        // memory lines (per sample, growth within a fork) are there only where the resident set moved more than the
        // allocator's noise: mlp-tiny's 1 KiB of activations leave that to chance (CI's machine grew 4.2 MiB from
        // batch 1 to 4), so they are optional here; MemoryScalingTest and MemoryGrowthLineTest check their content.
        // So is the headline's line, there only when a fork ran while the machine was disturbed (HeadlineTest)
        List<String> lines = summary.lines().filter(l -> !l.startsWith("memory: mlp-tiny on ort")
                && !l.startsWith("headline: ")).toList();
        assertThat(lines).hasSize(7);
        assertThat(lines.subList(1, 3)).allSatisfy(l -> assertThat(l).startsWith("mlp-tiny"));
        assertThat(lines.get(3)).startsWith("every cell: ").contains("precision=fp32");
        // where throughput stops growing with the batch (batch 1 and 4 of one setting)
        assertThat(lines.get(4)).startsWith("throughput: mlp-tiny on ort ");
        // one fork per cell: the growth verdict says why it has none
        assertThat(lines.get(5)).isEqualTo("memory: growth with calls not judged for 2 cells: one fork (an interval needs"
                + " 2 or more forks)");
        // the machine's state over the run: the canary of both forks, other processes' CPU (under a verify beside other
        // builds, over 0.5 cores of them: the line says the whole run shared the machine)
        assertThat(lines.get(6)).matches("machine: canary [0-9.]+ ms \\(median of 2 forks\\), spread \\d+% over the run;"
                + " other processes [0-9.]+ cores \\(median\\)(, so the whole run shared the machine \\([^)]*\\))?; .*");
        assertThat(r.out()).contains(summary);
        assertThat(Files.readString(runDir.resolve("run.properties"))).contains("cells.measured=2").contains("cells.failed=0");
        // the report is written at the end of every run that measured something
        assertThat(r.out()).containsPattern("inferbench: report in \\S*" + runDir.getFileName() + "/report/report.html");
        assertThat(Files.readString(runDir.resolve("report").resolve("report.md"))).contains("mlp-tiny");
        assertThat(runDir.resolve("report").resolve("report.csv")).isNotEmptyFile();
        // and the finished run is filed in the history, by environment and commit
        try (Stream<Path> entries = Files.walk(cwd.resolve("results/history"), 2)) {
            assertThat(entries.filter(p -> p.getNameCount() - cwd.resolve("results/history").getNameCount() == 2))
                    .singleElement().satisfies(e -> assertThat(e.resolve("jmh-result.json")).isNotEmptyFile());
        }
    }

    /**
     * Two benchmarks in one run: each cell's forks run its own benchmark only (JMH adds the run's include pattern to
     * every fork's, so without care both ran and the first result was filed under both), and the summary pairs the
     * end-to-end cell with its inference-only cell, for a vision and a text model.
     */
    @Test
    void endToEndBesideInferenceOnlyShowsTheGap() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("e2e"));
        Jar.Run r = run(cwd, "InferenceBenchmark|EndToEndBenchmark -p model=resnet-tiny,bert-tiny -p batchSize=1 "
                + "-p seqLen=16 " + SHORT);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        JsonNode cells = new ObjectMapper().readTree(onlyRunFolder(cwd).resolve("jmh-result.json").toFile());
        List<String> names = new ArrayList<>();
        cells.forEach(c -> names.add(c.get("benchmark").asText().replaceAll(".*\\.(\\w+Benchmark\\.\\w+)$", "$1")
                + " " + c.get("params").get("model").asText()));
        assertThat(names).containsExactlyInAnyOrder("EndToEndBenchmark.request resnet-tiny",
                "EndToEndBenchmark.request bert-tiny", "InferenceBenchmark.infer resnet-tiny",
                "InferenceBenchmark.infer bert-tiny");
        assertThat(r.out()).contains("end-to-end (pre-processing + inference + post-processing) vs inference only");
        assertThat(r.out().lines().filter(l -> l.matches("(resnet-tiny|bert-tiny)\\s+ort\\s+1\\s+.*%"))).hasSize(2);
    }

    /**
     * Kills the jar (SIGKILL) as soon as it announces ResNet-50 generation, which takes about half a second: no
     * model file may be left that a later run would load, only a complete one.
     */
    @Test
    void killedGenerationLeavesNoHalfWrittenModel() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("killed"));
        Process p = Jar.command(cwd, "-p model=resnet50 -p batchSize=1").redirectErrorStream(true).start();
        try (var lines = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
            String line;
            while ((line = lines.readLine()) != null && !line.contains("generating zoo model resnet50")) {
                // skip to the announcement
            }
            assertThat(line).as("generation announced").isNotNull();
            p.destroyForcibly();
        }
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        Path model = cwd.resolve("models/resnet50.onnx");
        boolean survived = Files.exists(model);
        if (survived) {
            // the kill came after the rename: then the file must be whole
            assertThat(OnnxMl.ModelProto.parseFrom(Files.readAllBytes(model)).getGraph().getNodeCount())
                    .isPositive();
        }
        // the next run checks (and regenerates) the model, then stops at its non-empty run folder
        Jar.Run next = run(cwd, "-p model=resnet50 -p batchSize=1 --run-dir .");
        assertThat(next.code()).isEqualTo(2);
        assertThat(next.err()).contains("is not empty");
        if (!survived) {
            assertThat(next.out()).contains("generated resnet50: 25,557,032 parameters");
        }
    }

    @Test
    void badModelNameIsOneLineAndNoRun() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("bad"));
        Jar.Run r = run(cwd, "-p model=resnet5O " + SHORT);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("inferbench: unknown model 'resnet5O'; expected one of:").contains("resnet50");
        assertThat(r.out()).isEmpty();
        assertThat(cwd.resolve("results")).doesNotExist();
    }

    @Test
    void failingCellKeepsTheMeasuredOnesAndFailsTheRun() throws Exception {
        // A file that passes every check before JMH (a .pt for djl-pytorch) but is not TorchScript fails in its fork.
        Path cwd = Files.createDirectory(work.resolve("partial"));
        Files.writeString(cwd.resolve("broken.pt"), "not a TorchScript archive");
        Files.writeString(cwd.resolve("benchmarks.properties"), Files.readString(Path.of("benchmarks.properties"))
                + "\nmodel.broken.file=broken.pt\nmodel.broken.inputs=x=4\n");
        Jar.Run r = run(cwd, "-p model=mlp-tiny,broken -p engine=djl-pytorch -p batchSize=1 " + SHORT);
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(r.err()).contains("failed: cannot load broken.pt with engine 'djl-pytorch' on cpu");
        assertThat(r.out()).doesNotContain("\tat ").contains("--verbose");
        JsonNode cells = new ObjectMapper().readTree(onlyRunFolder(cwd).resolve("jmh-result.json").toFile());
        assertThat(cells.size()).isEqualTo(1);
        assertThat(cells.get(0).get("params").get("model").asText()).isEqualTo("mlp-tiny");
    }
}
