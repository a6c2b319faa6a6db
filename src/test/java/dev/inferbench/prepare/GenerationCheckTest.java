package dev.inferbench.prepare;

import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class GenerationCheckTest {
    private static final Path FILE = Path.of("exports/decoder_model.onnx");

    @Test
    void aFloat16DecoderByPathSaysThatPrecisionFp32RunsItAsItIs() {
        DecoderLayout fp16 = new DecoderLayout(2, 1, 16, 32000, true, OptionalInt.empty(), DType.FLOAT16,
                DType.FLOAT16, false);
        assertThat(GenerationCheck.asIsLine(fp16, FILE)).contains("[inferbench] " + FILE + " is a float16 decoder"
                + " (caches float16, logits float16): its cells' precision=fp32 runs the file as it is, in float16");
    }

    @Test
    void aFloat32DecoderNeedsNoLine() {
        DecoderLayout fp32 = new DecoderLayout(2, 1, 16, 32000, true, OptionalInt.empty(), DType.FLOAT32,
                DType.FLOAT32, false);
        assertThat(GenerationCheck.asIsLine(fp32, FILE)).isEmpty();
    }
}
