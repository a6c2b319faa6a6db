package dev.inferbench.model;

import java.io.PrintStream;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.SyntheticInputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ArchitecturesTest {

    @Test
    void publishedParameterCounts() {
        assertThat(MobileNetV2.mobilenetV2().build().parameterCount()).isEqualTo(3_504_872L);
        assertThat(VisionTransformer.vitB16().build().parameterCount()).isEqualTo(86_567_656L);
        assertThat(Bert.base().build().parameterCount()).isEqualTo(109_482_240L);
    }

    @Test
    void tinyVariantsHaveHandCountedParameters() {
        // patch conv 3*8*8*64+64, class token 64, positions 17*64, per layer 4*(64*64+64) + 2*64*2 + 64*128+128
        // + 128*64+64, final norm 2*64, head 64*10+10
        long layer = 4 * (64 * 64 + 64) + 4 * 64 + 64 * 128 + 128 + 128 * 64 + 64;
        long vit = 3 * 8 * 8 * 64 + 64 + 64 + 17 * 64 + 2 * layer + 2 * 64 + 64 * 10 + 10;
        assertThat(VisionTransformer.tiny().build().parameterCount()).isEqualTo(vit);
        long bertLayer = 4 * (128 * 128 + 128) + 4 * 128 + 128 * 512 + 512 + 512 * 128 + 128;
        long bert = (30522 + 512 + 2) * 128 + 2 * 128 + 2 * bertLayer + 128 * 128 + 128;
        assertThat(Bert.tiny().build().parameterCount()).isEqualTo(bert);
    }

    @Test
    void bertTakesTokenIdsAndMaskWithDynamicSequence() {
        Graph g = Bert.base().build();
        assertThat(g.inputSpecs()).extracting(Graph.Input::name).containsExactly("input_ids", "attention_mask");
        assertThat(g.inputs().get(0).shape()).containsExactly(Graph.SEQ);
        assertThat(g.outputs().get("pooler_output").shape()).containsExactly(768);
        assertThat(g.metadata()).containsEntry(OnnxExporter.META_VOCAB, "30522");
    }

    @ParameterizedTest
    @EnumSource(value = Zoo.class, names = {"MOBILENET_TINY", "VIT_TINY", "BERT_TINY", "RESNET_TINY", "MLP_TINY"})
    void tinyModelsAreDeterministicAndFiniteOnOrt(Zoo zoo, @TempDir Path dir) throws Exception {
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        ByteArrayOutputStream second = new ByteArrayOutputStream();
        new OnnxExporter(7).write(zoo.architecture().build(), first);
        new OnnxExporter(7).write(zoo.architecture().build(), second);
        assertThat(first.toByteArray()).isEqualTo(second.toByteArray());

        Path file = dir.resolve(zoo.id() + ".onnx");
        Files.write(file, first.toByteArray());
        try (InferenceEngine engine = EngineKind.ORT.open(file, Device.CPU, 1);
             PreparedInput in = engine.prepare(SyntheticInputs.create(zoo.id(), engine.signature().inputs(),
                     Map.of(), 2, 16, 5));
             Outputs out = engine.run(in)) {
            for (int i = 0; i < out.count(); i++) {
                assertThat(out.shape(i)[0]).isEqualTo(2);
                float[] values = out.floats(i);
                assertThat(values).isNotEmpty();
                for (float v : values) {
                    assertThat(Float.isFinite(v)).as("%s output %d finite", zoo.id(), i).isTrue();
                }
            }
        }
    }

    @Test
    void bigTransformersRunFinite(@TempDir Path dir) throws Exception {
        for (Architecture arch : new Architecture[]{MobileNetV2.mobilenetV2(), Bert.base(), VisionTransformer.vitB16()}) {
            Path file = dir.resolve(arch.name() + ".onnx");
            new ZooGenerator(3, new PrintStream(new ByteArrayOutputStream())).generate(arch, file);
            try (InferenceEngine engine = EngineKind.ORT.open(file, Device.CPU, 0);
                 PreparedInput in = engine.prepare(SyntheticInputs.create(arch.name(), engine.signature().inputs(),
                         Map.of(), 1, 32, 5));
                 Outputs out = engine.run(in)) {
                for (float v : out.floats(0)) {
                    assertThat(Float.isFinite(v)).as(arch.name()).isTrue();
                }
            }
        }
    }
}
