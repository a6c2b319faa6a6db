package dev.inferbench.engine;

import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * In a JVM where plain ORT made ONNX Runtime's environment, djl-ort fails with one line saying why. Runs in the
 * default test JVM, where ORT tests run; the DJL tests have a JVM of their own.
 */
class OrtBeforeDjlOrtTest {
    @TempDir
    Path dir;

    @Test
    void djlOrtAfterOrtInOneJvmIsOneLine() throws Exception {
        Path file = dir.resolve("mlp.onnx");
        try (OutputStream out = Files.newOutputStream(file)) {
            new OnnxExporter(1).write(Mlp.tiny().build(), out);
        }
        EngineKind.ORT.open(file, Device.CPU, 1).close();
        for (int attempt = 0; attempt < 2; attempt++) { // the second attempt meets DJL's half-initialised class
            assertThatThrownBy(() -> EngineKind.DJL_ORT.open(file, Device.CPU, 1))
                    .hasMessageStartingWith("engine 'djl-ort' cannot start DJL's OnnxRuntime engine: ")
                    .hasMessageEndingWith("; expected a JVM where engine 'ort' has not yet created ONNX Runtime's"
                            + " environment (open djl-ort first)");
        }
    }
}
