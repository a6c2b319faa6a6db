package dev.inferbench.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Training steps beside inference through the jar: the training cells' memory lands in the JMH JSON, the summary and
 * the reports get the "training vs inference" section with each step beside its inference cell, and the plot is
 * written; the cells of an engine that cannot train are skipped before any fork, with their reason.
 */
class TrainingIT {
    @TempDir
    Path work;

    @Test
    void trainingCellsStandBesideInferenceCells() throws Exception {
        // --tail: a training step is a call of the slow-call record, as an inference call is
        Jar.Run r = Jar.run(work, "Inference|Training -p model=resnet-tiny -p engine=djl-pytorch -p batchSize=1,4"
                + " -f 1 -wi 1 -w 100ms -i 2 -r 200ms --tail" + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).containsPattern("(?m)^tail +TrainingBenchmark\\.step model=resnet-tiny engine=djl-pytorch"
                + " batchSize=1: p99 ").containsPattern("(?m)^tail +InferenceBenchmark\\.infer model=resnet-tiny");
        Path runDir;
        try (Stream<Path> s = Files.list(work.resolve("results"))) {
            runDir = s.filter(d -> !d.getFileName().toString().equals("history")).findFirst().orElseThrow();
        }
        JsonNode cells = new ObjectMapper().readTree(runDir.resolve("jmh-result.json").toFile());
        assertThat(cells.size()).isEqualTo(4);
        Map<Integer, Double> intermediates = new HashMap<>();
        for (JsonNode cell : cells) {
            JsonNode m = cell.get("secondaryMetrics");
            if (!cell.get("benchmark").asText().endsWith("TrainingBenchmark.step")) {
                assertThat(m.has("train.mem.step")).isFalse();
                continue;
            }
            int batch = cell.get("params").get("batchSize").asInt();
            assertThat(m.get("train.mem.step").get("scoreUnit").asText()).isEqualTo("MiB");
            double inference = m.get("train.mem.inference").get("score").asDouble();
            double forward = m.get("train.mem.forward").get("score").asDouble();
            double backward = m.get("train.mem.backward").get("score").asDouble();
            // resnet-tiny's 19,994 trainable weights (its BN running statistics are not trained): 78.1 KiB of floats
            assertThat(m.get("train.mem.gradients").get("score").asDouble()).isCloseTo(19994 * 4 / 1048576.0, within(1e-6));
            assertThat(forward).isGreaterThanOrEqualTo(inference);
            assertThat(backward).isGreaterThanOrEqualTo(m.get("train.mem.gradients").get("score").asDouble());
            assertThat(m.get("train.mem.step").get("score").asDouble()).isCloseTo(forward + backward, within(1e-9));
            intermediates.put(batch, inference);
        }
        // DJL holds every intermediate of a forward: four times the samples, about four times the memory
        assertThat(intermediates.get(4) / intermediates.get(1)).isBetween(3.0, 4.0);

        String summary = Files.readString(runDir.resolve("summary.txt"));
        assertThat(summary).contains("training vs inference (djl-pytorch;");
        List<String> rows = summary.lines().filter(l -> l.startsWith("resnet-tiny  djl-pytorch  ")).toList();
        // each training row has the inference time of its batch beside the step's, and their ratio
        assertThat(rows).anySatisfy(l -> assertThat(l).matches("resnet-tiny  djl-pytorch  1 .*[0-9.]+×\\s+1"));
        assertThat(summary).doesNotContain("inference ms: n/a where");
        assertThat(runDir.resolve("report/report.md")).content().contains("## Training vs inference");
        assertThat(runDir.resolve("report/report.html")).content().contains("<h2>Training vs inference</h2>")
                .contains("plot-inference-vs-training");
        assertThat(runDir.resolve("report/plots/inference-vs-training.png")).isNotEmptyFile();
    }

    /**
     * A run of every benchmark crosses TrainingBenchmark with every engine: the cells of an engine that cannot train are
     * skipped with their reason, before any fork, like a cuda cell on a machine without a GPU.
     */
    @Test
    void anEngineWithoutGradientsIsSkippedBeforeAnyFork() throws Exception {
        Jar.Run r = Jar.run(work, "Training -p model=mlp-tiny -p engine=ort -p batchSize=1 -f 1 -wi 0 -i 1 -r 100ms");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("skipped TrainingBenchmark.step batchSize=1 device=cpu engine=ort model=mlp-tiny"
                        + " seqLen=128 threads=0: engine 'ort' cannot run training steps (ONNX Runtime's inference"
                        + " sessions compute no gradients); expected -p engine=djl-pytorch for TrainingBenchmark")
                .contains("0 cells measured, 0 failed, 1 skipped").doesNotContain("# Fork:");
    }
}
