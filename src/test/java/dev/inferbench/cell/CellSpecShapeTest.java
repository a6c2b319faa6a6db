package dev.inferbench.cell;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.InputValues;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.DynamicModels;
import dev.inferbench.tensor.HostTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code -p shape} and {@code -p values} parsed into the typed cell, and what they make run on ONNX Runtime. */
class CellSpecShapeTest {
    @TempDir
    Path dir;

    private CellSpec cell(Path model, String... kv) throws BenchException {
        Map<String, String> params = new java.util.LinkedHashMap<>(Map.of(CellSpec.MODEL, model.toString()));
        for (int i = 0; i < kv.length; i += 2) {
            params.put(kv[i], kv[i + 1]);
        }
        return CellSpec.of(params, BenchConfig.parse(""));
    }

    @Test
    void aShapeValueIsParsedOnceIntoTheCellsInputs() throws Exception {
        CellSpec c = cell(dir.resolve("m.onnx"), CellSpec.SHAPE, "x:3x8x6; height:8");
        assertThat(c.shapes()).containsOnlyKeys("x", "height");
        assertThat(c.model().inputs().get("x")).containsExactly(3, 8, 6);
        assertThat(c.inputs().perSample().get("height")).containsExactly(8);
        assertThat(cell(dir.resolve("m.onnx")).shapes()).isEmpty();
    }

    @Test
    void aShapeThatDoesNotReadIsRefusedInOneLine() {
        for (String bad : List.of("x", "x:3x0", "x:3xN", ":3", "x:3;x:4")) {
            assertThatThrownBy(() -> cell(dir.resolve("m.onnx"), CellSpec.SHAPE, bad))
                    .as(bad).isInstanceOf(BenchException.class).hasMessageStartingWith("shape '" + bad + "'")
                    .hasMessageNotContaining("\n");
        }
    }

    @Test
    void valuesAreAConstantARangeOrAFile() throws Exception {
        Path npy = npy(dir.resolve("h.npy"), new long[]{4}, 1, 2, 3, 4);
        CellSpec c = cell(dir.resolve("m.onnx"), CellSpec.VALUES, "sr:16000;x:0..1;h:" + npy);
        assertThat(c.values().rule("sr")).isEqualTo(new InputValues.Constant(16000));
        assertThat(c.values().rule("x")).isEqualTo(new InputValues.Range(0, 1));
        assertThat(((InputValues.Given) c.values().rule("h")).tensor().shape()).containsExactly(4);
        assertThatThrownBy(() -> cell(dir.resolve("m.onnx"), CellSpec.VALUES, "sr:1..1"))
                .hasMessage("values 'sr:1..1': 'sr:1..1' is neither a number, a range LOW..HIGH with LOW < HIGH nor a"
                        + " .npy file; expected e.g. sr:16000 or sr:0..1");
        assertThatThrownBy(() -> cell(dir.resolve("m.onnx"), CellSpec.VALUES, "h:" + dir.resolve("gone.npy")))
                .isInstanceOf(BenchException.class).hasMessageContaining("gone.npy");
    }

    @Test
    void anImageModelWithDynamicHeightAndWidthRunsWithShapeAlone() throws Exception {
        Path model = DynamicModels.image(dir.resolve("image.onnx"));
        CellSpec c = cell(model, CellSpec.BATCH_SIZE, "2", CellSpec.SHAPE, "height:8;width:6");
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1)) {
            List<HostTensor> in = SyntheticInputs.forModel(c.inputs(), engine.signature().inputs());
            assertThat(in.get(0).shape()).containsExactly(2, 3, 8, 6);
            try (PreparedInput p = engine.prepare(in); Outputs out = engine.run(p)) {
                assertThat(out.shape(0)).containsExactly(2, 3, 8, 6);
            }
        }
    }

    @Test
    void aScalarInputRunsWithItsValue() throws Exception {
        Path model = DynamicModels.scalar(dir.resolve("scalar.onnx"));
        CellSpec c = cell(model, CellSpec.BATCH_SIZE, "3", CellSpec.VALUES, "sr:2;x:1..2");
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1)) {
            List<HostTensor> in = SyntheticInputs.forModel(c.inputs(), engine.signature().inputs());
            assertThat(in.get(1).shape()).isEmpty();
            float[] x = floats(in.get(0));
            assertThat(x).hasSize(12);
            for (float v : x) {
                assertThat(v).isBetween(1f, 2f);
            }
            try (PreparedInput p = engine.prepare(in); Outputs out = engine.run(p)) {
                float[] y = out.floats(0);
                for (int i = 0; i < x.length; i++) {
                    assertThat(y[i]).isEqualTo(2 * x[i]);
                }
            }
        }
    }

    @Test
    void aStateIsParsedOnceAndRefusedWhereItCannotBeFollowed() throws Exception {
        Path model = DynamicModels.recurrent(dir.resolve("rnn.onnx"), true);
        CellSpec c = cell(model, CellSpec.STATE, "hn:h", CellSpec.VALUES, "h:0");
        assertThat(c.state().links()).containsExactly(new dev.inferbench.engine.StateFeed.Link("hn", "h"));
        assertThat(cell(model).state().isEmpty()).isTrue();
        assertThatThrownBy(() -> cell(model, CellSpec.STATE, "hn:h", CellSpec.ENGINE, "djl-ort")).hasMessage("state"
                + " hn:h feeds outputs back as inputs on engine ort only; got engine 'djl-ort'; expected -p engine=ort"
                + " with -p state");
        assertThatThrownBy(() -> cell(model, CellSpec.STATE, "hn:h", CellSpec.CALLERS, "2")).hasMessageEndingWith(
                "got callers=2; expected callers=1 with -p state");
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.CPU, 1);
             PreparedInput p = engine.prepare(SyntheticInputs.forModel(c.inputs(), engine.signature().inputs()),
                     c.state())) {
            float last = 0;
            for (int k = 0; k < 3; k++) {
                try (Outputs out = engine.run(p)) {
                    last = out.floats(1)[0];
                }
            }
            assertThat(last).isEqualTo(3f);
        }
    }

    private static float[] floats(HostTensor t) {
        FloatBuffer f = ((FloatBuffer) t.data()).duplicate();
        float[] out = new float[f.capacity()];
        f.get(0, out);
        return out;
    }

    /** A little-endian float32 .npy file, format 1.0. */
    static Path npy(Path file, long[] shape, float... values) throws Exception {
        StringBuilder dims = new StringBuilder();
        for (long d : shape) {
            dims.append(d).append(", ");
        }
        String header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + dims + "), }";
        header = header + " ".repeat(64 - (10 + header.length() + 1) % 64) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) header.length(),
                (byte) (header.length() >> 8)});
        out.write(header.getBytes(StandardCharsets.ISO_8859_1));
        ByteBuffer data = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        data.asFloatBuffer().put(values);
        out.write(data.array());
        return Files.write(file, out.toByteArray());
    }
}
