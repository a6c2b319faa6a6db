package dev.inferbench.prepare;

import dev.inferbench.config.ModelEntry;
import dev.inferbench.model.Zoo;
import dev.inferbench.model.ZooGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A registered zoo model whose file was generated for another architecture is noticed (and then generated again). */
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
}
