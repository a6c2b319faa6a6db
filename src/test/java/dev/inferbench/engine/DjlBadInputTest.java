package dev.inferbench.engine;

import ai.djl.ndarray.NDManager;
import ai.onnx.proto.OnnxMl;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Files an engine cannot read fail with one line naming the engine, the file and what was expected. */
class DjlBadInputTest {
    @TempDir
    Path dir;

    @Test
    void torchScriptForAnOnnxEngine() throws Exception {
        Path pt = Files.writeString(dir.resolve("their.pt"), "not read");
        for (EngineKind onnxEngine : new EngineKind[]{EngineKind.ORT, EngineKind.DJL_ORT}) {
            assertThatThrownBy(() -> onnxEngine.checkFile(pt)).hasMessage("engine '" + onnxEngine.id()
                    + "' cannot read " + pt + ": it is a TorchScript file; expected an .onnx file"
                    + " (TorchScript runs on -p engine=djl-pytorch)");
        }
        assertThatThrownBy(() -> EngineKind.DJL_ORT.open(pt, Device.CPU, 1))
                .hasMessage("engine 'djl-ort' cannot read " + pt + "; expected an .onnx file");
    }

    @Test
    void foreignOnnxForTorch() throws Exception {
        OnnxMl.ModelProto zoo = new OnnxExporter(1).export(Mlp.tiny().build());
        Path foreign = dir.resolve("foreign.onnx");
        try (OutputStream out = Files.newOutputStream(foreign)) {
            zoo.toBuilder().clearMetadataProps().build().writeTo(out);
        }
        assertThatThrownBy(() -> EngineKind.DJL_PYTORCH.open(foreign, Device.CPU, 1)).hasMessage("engine 'djl-pytorch'"
                + " cannot read " + foreign + ": libtorch has no ONNX importer and the file is not an inferbench zoo"
                + " model; expected a TorchScript file (.pt) or an inferbench zoo model (.onnx)");
        Path other = Files.writeString(dir.resolve("model.tflite"), "x");
        assertThatThrownBy(() -> EngineKind.DJL_PYTORCH.open(other, Device.CPU, 1)).hasMessage("engine 'djl-pytorch'"
                + " cannot read " + other + "; expected a TorchScript file (.pt) or an inferbench zoo model (.onnx)");
    }

    @Test
    void torchScriptNeedsItsInputsDeclaredAndMustBeTorchScript() throws Exception {
        Path pt = Files.writeString(dir.resolve("broken.pt"), "not a zip");
        assertThatThrownBy(() -> EngineKind.DJL_PYTORCH.open(pt, Device.CPU, 1)).hasMessage("engine 'djl-pytorch'"
                + " cannot tell the inputs of " + pt + ": TorchScript files do not declare them; expected"
                + " model.<name>.inputs=name=DxD... in benchmarks.properties");
        EngineSettings declared = new EngineSettings(1, 0, EngineSettings.GraphOptimization.ALL,
                Map.of("input", new long[]{4}));
        assertThatThrownBy(() -> EngineKind.DJL_PYTORCH.open(pt, Device.CPU, declared))
                .hasMessageStartingWith("cannot load " + pt + " with engine 'djl-pytorch' on cpu: ")
                .hasMessageEndingWith("; expected a TorchScript file (torch.jit.save)");
    }

    @Test
    void aZooFileWithoutTheZoosWeightsIsRefused() throws Exception {
        DjlRuntime.configure(0);
        try (NDManager manager = NDManager.newBaseManager("PyTorch")) {
            assertThatThrownBy(() -> GraphRenderer.render(Mlp.tiny().build(), Map.of(), manager))
                    .hasMessage("the ONNX file of model mlp-tiny has no float initializer 'fc1.weight'; expected the"
                            + " zoo's weights (regenerate the file)");
        }
    }

    @Test
    void sessionOptionsAreApplied() throws Exception {
        Path file = dir.resolve("mlp.onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(1).write(Mlp.tiny().build(), out);
        }
        for (EngineSettings.GraphOptimization level : EngineSettings.GraphOptimization.values()) {
            EngineSettings s = new EngineSettings(1, 1, level, Map.of());
            for (EngineKind kind : new EngineKind[]{EngineKind.DJL_ORT, EngineKind.DJL_PYTORCH}) {
                try (InferenceEngine engine = kind.open(file, Device.CPU, s)) {
                    assertThat(engine.signature().inputs()).hasSize(1);
                }
            }
        }
        assertThatThrownBy(() -> EngineSettings.GraphOptimization.parse("max"))
                .hasMessage("unknown optLevel 'max'; expected one of: all, extended, basic, none");
    }
}
