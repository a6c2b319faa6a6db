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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** A recurrent state or a scalar left to synthetic values is named with the flag that gives it; a typo is refused. */
    @Test
    void aStateOrAScalarLeftSyntheticIsHintedAndAStateTypoRefused() throws Exception {
        Path rnn = dev.inferbench.model.DynamicModels.recurrent(dir.resolve("rnn.onnx"), true);
        Path scalar = dev.inferbench.model.DynamicModels.scalar(dir.resolve("scalar.onnx"));
        Path audio = dev.inferbench.model.DynamicModels.audio(dir.resolve("audio.onnx"));
        BenchConfig config = BenchConfig.parse("");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        MatrixCheck.prepare(List.of(infer(rnn, "none"), infer(scalar, "none"), infer(audio, "none")), config,
                new PrintStream(progress, true));
        assertThat(progress.toString()).contains("[inferbench] model '" + audio + "' input 'x' [-1, -1] takes seqLen"
                + " (128) for its open dimension; audio samples or frames may need a length of their own:"
                + " -p shape=x:N").doesNotContain("input 'h' [2, -1, 3] takes seqLen");
        assertThat(progress.toString()).contains("[inferbench] model '" + rnn + "' output 'hn' has the type and shape"
                + " of input 'h', as a recurrent state has; -p state=hn:h feeds each call's into the next")
                .contains("[inferbench] model '" + scalar + "' input 'sr' is a scalar and holds a synthetic value; a"
                        + " setting such as a sample rate takes its own: -p values=sr:V");
        progress.reset();
        MatrixCheck.prepare(List.of(infer(rnn, "hn:h")), config, new PrintStream(progress, true));
        assertThat(progress.toString()).doesNotContain("recurrent state");
        assertThatThrownBy(() -> MatrixCheck.prepare(List.of(infer(rnn, "hm:h")), config,
                new PrintStream(OutputStream.nullOutputStream()))).hasMessage("state names output 'hm', which model '"
                + rnn + "' does not have; expected one of [y, hn] before the ':'");
    }

    /** An output named after an input but of another shape is no state (isnet's input.1252 beside input). */
    @Test
    void anOutputOfAnotherShapeIsNoStateHint() throws Exception {
        var f32 = dev.inferbench.tensor.TensorSpec.DType.FLOAT32;
        dev.inferbench.cell.CellSpec cell = dev.inferbench.cell.CellSpec.of(Map.of("model", "x.onnx"),
                BenchConfig.parse(""));
        assertThat(CellInputs.hints("m", List.of(new dev.inferbench.tensor.TensorSpec("input", f32,
                new long[]{1, 3, 1024, 1024})), List.of(new dev.inferbench.tensor.TensorSpec("input.1252", f32,
                new long[]{1, 64, 512, 512})), cell)).isEmpty();
    }

    private static Cell infer(Path model, String state) {
        return new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", Map.of("model", model.toString(),
                "engine", "ort", "batchSize", "1", "state", state));
    }
}
