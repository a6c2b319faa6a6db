package dev.inferbench.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Libraries that load together are kept in a folder named by their bytes: the same libraries find the same folder
 * again, different ones (another ONNX Runtime version, compared in turns with this one) a folder of their own.
 */
class NativeLibraryTest {
    @TempDir
    Path cache;

    @Test
    void librariesThatLoadTogetherGetAFolderNamedByTheirBytes() throws Exception {
        String platform = NativeLibrary.platform();
        List<String> ort = List.of("ai/onnxruntime/native/" + platform + "/libonnxruntime.so",
                "ai/onnxruntime/native/" + platform + "/libonnxruntime4j_jni.so");
        Path first = NativeLibrary.extractTogether(ort, cache);
        assertThat(first.getParent()).isEqualTo(cache);
        assertThat(first.resolve("libonnxruntime.so")).isRegularFile();
        assertThat(first.resolve("libonnxruntime4j_jni.so")).isRegularFile();
        assertThat(NativeLibrary.extractTogether(ort, cache)).as("the same bytes, the same folder").isEqualTo(first);

        // other bytes (here: the core library without its binding) go to a folder of their own, the first untouched
        Path other = NativeLibrary.extractTogether(List.of(ort.get(0)), cache);
        assertThat(other).isNotEqualTo(first).isDirectory();
        assertThat(first.resolve("libonnxruntime4j_jni.so")).isRegularFile();
    }
}
