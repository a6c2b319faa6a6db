package dev.inferbench.prepare;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.cell.Cell;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.ZooGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.List;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A registered zoo model whose file was generated for another architecture, or by an older zoo writer, is noticed
 * (and then generated again).
 */
class MatrixCheckTest {
    @TempDir
    Path dir;

    @Test
    void aZooFileOfAnotherArchitectureIsNoticed() throws Exception {
        Path file = dir.resolve("foo.onnx");
        new ZooGenerator(1, new PrintStream(OutputStream.nullOutputStream())).generate(Zoo.RESNET_TINY.architecture(), file);
        assertThat(MatrixCheck.holdsOtherZoo(new ModelEntry("foo", file, Zoo.RESNET_TINY, Map.of()))).isFalse();
        // model.foo.zoo changed to mlp-tiny: the resnet file must not be measured (and counted) as mlp-tiny
        assertThat(MatrixCheck.holdsOtherZoo(new ModelEntry("foo", file, Zoo.MLP_TINY, Map.of()))).isTrue();
        assertThat(MatrixCheck.holdsOtherZoo(new ModelEntry("foo", dir.resolve("none.onnx"), Zoo.MLP_TINY, Map.of()))).isFalse();
    }

    /** A zoo file from before module-path node names is written again; one of the current format is left alone. */
    @Test
    void aZooFileOfAnOlderWriterIsGeneratedAgain() throws Exception {
        Path file = dir.resolve("foo.onnx");
        OnnxMl.ModelProto current = new OnnxExporter(1).export(Zoo.MLP_TINY.architecture().build());
        OnnxMl.ModelProto.Builder old = current.toBuilder().clearMetadataProps();
        current.getMetadataPropsList().stream().filter(e -> !e.getKey().equals(OnnxExporter.META_FORMAT))
                .forEach(old::addMetadataProps);
        Files.write(file, old.build().toByteArray());
        BenchConfig config = BenchConfig.parse("seed.zoo=1\nmodel.foo.zoo=mlp-tiny\nmodel.foo.file=" + file + "\n");
        List<Cell> cells = List.of(new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample",
                Map.of("model", "foo", "engine", "ort", "batchSize", "1")));
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        MatrixCheck.prepare(cells, config, new PrintStream(progress, true));
        assertThat(progress.toString()).contains("older zoo writer (format 1, now " + OnnxExporter.FORMAT + ")");
        assertThat(Files.readAllBytes(file)).isEqualTo(current.toByteArray());

        progress.reset();
        MatrixCheck.prepare(cells, config, new PrintStream(progress, true));
        assertThat(progress.toString()).doesNotContain("generating");
    }

    /**
     * An int8 variant is calibrated on ONNX Runtime, so it is made in a JVM of its own: its lines reach the launcher's
     * progress and the file is there after; a second check finds it current and starts nothing.
     */
    @Test
    void anInt8VariantIsMadeInAJvmOfItsOwn() throws Exception {
        Path file = dir.resolve("foo.onnx");
        new ZooGenerator(1, new PrintStream(OutputStream.nullOutputStream())).generate(Zoo.MLP_TINY.architecture(), file);
        Path properties = Files.writeString(dir.resolve("b.properties"), "seed.zoo=1\nmodel.foo.zoo=mlp-tiny\n"
                + "model.foo.file=" + file + "\n");
        BenchConfig config = BenchConfig.fromFile(properties);
        List<Cell> cells = List.of(new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample",
                Map.of("model", "foo", "engine", "ort", "batchSize", "1", "precision", "int8")));
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        MatrixCheck.prepare(cells, config, new PrintStream(progress, true));
        assertThat(progress.toString()).contains("making the int8 variant of foo");
        assertThat(dev.inferbench.variant.Variants.file(file, dev.inferbench.variant.Precision.INT8)).exists();

        progress.reset();
        MatrixCheck.prepare(cells, config, new PrintStream(progress, true));
        assertThat(progress.toString()).doesNotContain("making");
    }
}
