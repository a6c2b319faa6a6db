package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.Architecture;
import dev.inferbench.model.Bert;
import dev.inferbench.model.MobileNetV2;
import dev.inferbench.model.VisionTransformer;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ResNet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every engine runs the same zoo file on the same seeded batch and gives the same answer: djl-ort runs the same ORT
 * kernels as ort (bit-identical), djl-pytorch runs libtorch kernels on the file's weights (float rounding only).
 * Every zoo architecture is covered, through its tiny variant (same ops, fewer layers) and resnet50.
 */
class DjlAgreementTest {
    /**
     * Largest absolute difference allowed between softmax outputs of libtorch and ORT; seen here: 9e-8 on resnet50
     * (outputs up to 0.065), 3e-8 on the tiny models. A wrong rendering differs by about the outputs themselves.
     */
    static final float TOLERANCE = 1e-6f;
    /**
     * For outputs that are not probabilities (BERT's hidden states, of magnitude ~3.5 after layer norm, and its tanh
     * pooler output): the largest difference relative to max(1, largest output). Seen here: 1.7e-6 and 1.0e-6 on
     * bert-tiny; a wrong rendering differs by O(1).
     */
    static final float RELATIVE_TOLERANCE = 1e-5f;

    @TempDir
    static Path dir;

    static Stream<Architecture> tinyModels() {
        return Stream.of(Mlp.tiny(), ResNet.tiny());
    }

    static Stream<Architecture> everyTinyArchitecture() {
        return Stream.of(Mlp.tiny(), ResNet.tiny(), MobileNetV2.tiny(), VisionTransformer.tiny(), Bert.tiny());
    }

    /** DJL creates ONNX Runtime's environment (with its thread options) or fails, so it starts first. */
    @BeforeAll
    static void djlFirst() throws Exception {
        EngineKind.DJL_ORT.open(write(Mlp.tiny()), Device.CPU, 1).close();
    }

    /** Every output of every tiny architecture: softmax classes, and BERT's hidden states and pooler output. */
    @ParameterizedTest
    @MethodSource("everyTinyArchitecture")
    void allEnginesAgreeOnEveryTinyArchitecture(Architecture arch) throws Exception {
        Path file = write(arch);
        float[][] ort = runAll(EngineKind.ORT, file, 3);
        float[][] djlOrt = runAll(EngineKind.DJL_ORT, file, 3);
        float[][] torch = runAll(EngineKind.DJL_PYTORCH, file, 3);
        assertThat(torch).hasNumberOfRows(ort.length);
        for (int i = 0; i < ort.length; i++) {
            assertThat(djlOrt[i]).containsExactly(ort[i]);
            float diff = maxAbsDiff(torch[i], ort[i]);
            float allowed = probabilities(ort[i]) ? TOLERANCE : RELATIVE_TOLERANCE * Math.max(1f, maxAbs(ort[i]));
            assertThat(diff).as("output %d", i).isLessThan(allowed);
            assertThat(maxAbs(ort[i])).isGreaterThan(0.01f); // a real answer, not all zeros
            System.out.printf("%s b3 output %d: max |djl-pytorch - ort| = %.3g, max |ort| = %.3g%n", arch.name(), i,
                    diff, maxAbs(ort[i]));
        }
    }

    /** ResNet-50 too: 53 convolutions deep, where rounding differences would compound if the renderings differed. */
    @Test
    void allEnginesAgreeOnResNet50() throws Exception {
        Path file = write(ResNet.resnet50());
        float[] ort = run(EngineKind.ORT, file, 1);
        float[] djlOrt = run(EngineKind.DJL_ORT, file, 1);
        float[] torch = run(EngineKind.DJL_PYTORCH, file, 1);
        assertThat(ort).hasSize(1000);
        assertThat(djlOrt).containsExactly(ort);
        assertThat(maxAbsDiff(torch, ort)).isLessThan(TOLERANCE);
        System.out.printf("resnet50 b1 max |djl-pytorch - ort| = %.3g, max ort output = %.3g%n", maxAbsDiff(torch, ort),
                max(ort));
    }

    /**
     * Each call's intermediates and outputs go when its outputs close: the array count stays flat over many calls. On
     * every architecture: ViT's and BERT's operations that start from a weight (embedding rows, positions, the class
     * token) once left about 75 arrays a call under the model.
     */
    @ParameterizedTest
    @MethodSource("everyTinyArchitecture")
    void callsLeaveNoArraysBehind(Architecture arch) throws Exception {
        for (EngineKind kind : new EngineKind[]{EngineKind.DJL_ORT, EngineKind.DJL_PYTORCH}) {
            try (InferenceEngine engine = kind.open(write(arch), Device.CPU, 1);
                 PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(),
                         2, 128, 99))) {
                engine.run(in).close();
                int before = ((DjlEngine) engine).managedArrays();
                for (int i = 0; i < 50; i++) {
                    engine.run(in).close();
                }
                assertThat(((DjlEngine) engine).managedArrays()).as(kind.id()).isEqualTo(before);
                assertThat(before).isPositive();
            }
        }
    }

    private static boolean probabilities(float[] a) {
        for (float v : a) {
            if (v < 0 || v > 1) {
                return false;
            }
        }
        return true;
    }

    private static float maxAbs(float[] a) {
        float m = 0;
        for (float v : a) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    private static float max(float[] a) {
        float m = 0;
        for (float v : a) {
            m = Math.max(m, v);
        }
        return m;
    }

    static Path write(Architecture arch) throws IOException {
        Path file = dir.resolve(arch.name() + ".onnx");
        if (!Files.exists(file)) {
            try (OutputStream out = Files.newOutputStream(file)) {
                new OnnxExporter(7).write(arch.build(), out);
            }
        }
        return file;
    }

    static float[] run(EngineKind kind, Path model, int batch) throws BenchException {
        try (InferenceEngine engine = kind.open(model, Device.CPU, 1);
             PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(),
                     batch, 128, 99));
             Outputs out = engine.run(in)) {
            assertThat(out.shape(0)[0]).isEqualTo(batch);
            return out.floats(0);
        }
    }

    static float[][] runAll(EngineKind kind, Path model, int batch) throws BenchException {
        try (InferenceEngine engine = kind.open(model, Device.CPU, 1);
             PreparedInput in = engine.prepare(SyntheticInputs.create("m", engine.signature().inputs(), Map.of(),
                     batch, 16, 99));
             Outputs out = engine.run(in)) {
            float[][] all = new float[out.count()][];
            for (int i = 0; i < all.length; i++) {
                assertThat(out.shape(i)[0]).isEqualTo(batch);
                all[i] = out.floats(i);
            }
            return all;
        }
    }

    static float maxAbsDiff(float[] a, float[] b) {
        assertThat(a).hasSameSizeAs(b);
        float max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs(a[i] - b[i]));
        }
        return max;
    }
}
