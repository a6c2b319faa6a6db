package dev.inferbench.model;

import ai.onnx.proto.OnnxMl;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LlamaTest {
    @Test
    void smollm2HasThePublishedParameterCountAndTheFormulas() {
        Llama smol = Llama.smollm2();
        // SmolLM2-135M's configuration in closed form: 49152*576 + 30*(2*576^2 + 2*576*192 + 3*576*1536 + 2*576) + 576
        assertThat(smol.formulaParameters()).isEqualTo(134_515_008L);
        assertThat(smol.build().parameterCount()).isEqualTo(smol.formulaParameters());
    }

    @Test
    void tinyAndUntiedCountsFollowTheFormula() {
        Llama tiny = Llama.tiny();
        assertThat(tiny.build().parameterCount()).isEqualTo(tiny.formulaParameters());
        Llama untied = new Llama("untied", 100, 1, 32, 4, 1, 48, 64, 10000, false);
        assertThat(untied.build().parameterCount()).isEqualTo(untied.formulaParameters())
                .isEqualTo(untied.formulaParameters(true) + 100L * 32);
    }

    @Test
    void exportsTheOptimumLayoutWithTheTiedTableOnce() {
        OnnxMl.ModelProto m = new OnnxExporter(3).export(Llama.tiny().build());
        List<String> inputs = m.getGraph().getInputList().stream().map(OnnxMl.ValueInfoProto::getName).toList();
        assertThat(inputs).startsWith("input_ids", "attention_mask", "position_ids", "past_key_values.0.key",
                "past_key_values.0.value", "past_key_values.1.key").hasSize(3 + 2 * 2);
        List<String> outputs = m.getGraph().getOutputList().stream().map(OnnxMl.ValueInfoProto::getName).toList();
        assertThat(outputs).containsExactly("logits", "present.0.key", "present.0.value", "present.1.key",
                "present.1.value");
        OnnxMl.TensorShapeProto past = m.getGraph().getInput(3).getType().getTensorType().getShape();
        assertThat(past.getDimList()).extracting(d -> d.hasDimValue() ? Long.toString(d.getDimValue()) : d.getDimParam())
                .containsExactly("batch", "2", "past_seq", "16");
        assertThat(m.getGraph().getInitializerList()).filteredOn(t -> t.getName().startsWith("model.embed_tokens"))
                .hasSize(1);
    }
}
