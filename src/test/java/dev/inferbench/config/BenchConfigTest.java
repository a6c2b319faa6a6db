package dev.inferbench.config;

import dev.inferbench.BenchException;
import dev.inferbench.model.Zoo;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchConfigTest {

    @Test
    void shippedFileParsesAndRegistersTheZoo() throws BenchException {
        BenchConfig c = BenchConfig.fromFile(Path.of(BenchConfig.FILE_NAME));
        assertThat(c.models()).containsKeys("resnet50", "resnet-tiny", "mlp-tiny");
        ModelEntry r = c.model("resnet50");
        assertThat(r.zoo()).isEqualTo(Zoo.RESNET50);
        assertThat(r.file()).isEqualTo(Path.of("models/resnet50.onnx"));
        assertThat(r.inputs().get("input")).containsExactly(3, 224, 224);
        assertThat(c.defaultParam("batchSize")).containsExactly("1", "8");
        assertThat(c.defaultParamNames()).contains("model", "engine", "batchSize", "device", "threads");
        assertThat(c.getInt("run.forks")).isPresent();
    }

    @Test
    void userModelsAndShapes() throws BenchException {
        BenchConfig c = BenchConfig.parse("""
                model.bert.file=/m/bert.onnx
                model.bert.inputs=input_ids=128; attention_mask=128
                model.gen.zoo=mlp-tiny
                param.batchSize= 1, 2 ,4
                """);
        ModelEntry bert = c.model("bert");
        assertThat(bert.zoo()).isNull();
        assertThat(bert.file()).isEqualTo(Path.of("/m/bert.onnx"));
        assertThat(bert.inputs()).containsOnlyKeys("input_ids", "attention_mask");
        assertThat(c.model("gen").file()).isEqualTo(Path.of("models/gen.onnx"));
        assertThat(c.defaultParam("batchSize")).containsExactly("1", "2", "4");
        assertThat(c.defaultParam("device")).isEmpty();
    }

    @Test
    void unknownModelListsTheRegistry() throws BenchException {
        BenchConfig c = BenchConfig.parse("model.a.zoo=mlp-tiny\nmodel.b.zoo=resnet-tiny\n");
        assertThatThrownBy(() -> c.model("resnet"))
                .hasMessageStartingWith("unknown model 'resnet'; expected one of: a, b");
    }

    @Test
    void mistakesAreNamed() {
        assertThatThrownBy(() -> BenchConfig.parse("run.fork=3"))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("unknown key 'run.fork'");
        assertThatThrownBy(() -> BenchConfig.parse("model.x.file=a.onnx\nmodel.x.inputs=input=3xfoo"))
                .hasMessageContaining("model.x.inputs='input=3xfoo'").hasMessageContaining("expected name=DxDxD");
        assertThatThrownBy(() -> BenchConfig.parse("model.x.zoo=vgg"))
                .hasMessageContaining("unknown zoo architecture 'vgg'").hasMessageContaining("resnet50");
        assertThatThrownBy(() -> BenchConfig.parse("model.x.inputs=input=3"))
                .hasMessageContaining("has no model.x.file");
        assertThatThrownBy(() -> BenchConfig.parse("run.forks=three").getInt("run.forks"))
                .hasMessageContaining("run.forks='three'");
    }
}
