package dev.inferbench.engine;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import dev.inferbench.model.Llama;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A merged decoder (one file for the first step and the cached ones, Optimum's decoder_model_merged.onnx) by path:
 * llama-tiny as the zoo writes it, with a {@code use_cache_branch} input that selects, without an If: each layer's
 * past is cut to length 0 when it is false, so a caller that fed false after the first step would lose the cache.
 */
class MergedDecoderTest {
    @TempDir
    Path dir;

    /** llama-tiny with use_cache_branch: past_key_values.N.* pass through Slice(past, 0, len x flag, axis 2). */
    static Path writeMerged(Path dir) throws Exception {
        OnnxMl.ModelProto llama = new OnnxExporter(7).export(Llama.tiny().build());
        OnnxMl.GraphProto.Builder g = llama.getGraph().toBuilder().clearNode();
        g.addInput(OnnxMl.ValueInfoProto.newBuilder().setName(DecoderLayout.USE_CACHE_BRANCH)
                .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                        .setElemType(OnnxMl.TensorProto.DataType.BOOL.getNumber()).setShape(
                                OnnxMl.TensorShapeProto.newBuilder().addDim(
                                        OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(1))))));
        g.addInitializer(longs("merged.two", 2));
        g.addInitializer(longs("merged.three", 3));
        g.addInitializer(longs("merged.zero", 0));
        g.addNode(node("Cast", "merged.flag", List.of(DecoderLayout.USE_CACHE_BRANCH),
                OnnxMl.AttributeProto.newBuilder().setName("to").setType(OnnxMl.AttributeProto.AttributeType.INT)
                        .setI(OnnxMl.TensorProto.DataType.INT64.getNumber()).build()));
        Map<String, String> selected = new LinkedHashMap<>();
        for (OnnxMl.ValueInfoProto in : llama.getGraph().getInputList()) {
            String p = in.getName();
            if (p.startsWith("past_key_values.")) {
                g.addNode(node("Shape", p + ".shape", List.of(p), null));
                g.addNode(node("Slice", p + ".len", List.of(p + ".shape", "merged.two", "merged.three"), null));
                g.addNode(node("Mul", p + ".kept", List.of(p + ".len", "merged.flag"), null));
                g.addNode(node("Slice", p + ".selected", List.of(p, "merged.zero", p + ".kept", "merged.two"), null));
                selected.put(p, p + ".selected");
            }
        }
        for (NodeProto n : llama.getGraph().getNodeList()) {
            NodeProto.Builder b = n.toBuilder();
            for (int i = 0; i < b.getInputCount(); i++) {
                b.setInput(i, selected.getOrDefault(b.getInput(i), b.getInput(i)));
            }
            g.addNode(b);
        }
        Path file = dir.resolve("llama-tiny-merged.onnx");
        Files.write(file, llama.toBuilder().setGraph(g).build().toByteArray());
        return file;
    }

    private static OnnxMl.TensorProto longs(String name, long v) {
        return OnnxMl.TensorProto.newBuilder().setName(name).addDims(1)
                .setDataType(OnnxMl.TensorProto.DataType.INT64.getNumber()).addInt64Data(v).build();
    }

    private static NodeProto node(String op, String out, List<String> in, OnnxMl.AttributeProto attr) {
        NodeProto.Builder b = NodeProto.newBuilder().setOpType(op).setName(out).addAllInput(in).addOutput(out);
        if (attr != null) {
            b.addAttribute(attr);
        }
        return b.build();
    }

    @Test
    void aMergedDecoderRunsByPathWithTheTokensOfTheSplitOne() throws Exception {
        Path merged = writeMerged(dir);
        Path split = OrtDecoderTest.writeTiny(dir);
        DecoderLayout layout = DecoderLayout.of(merged);
        assertThat(layout.merged()).isTrue();
        assertThat(DecoderLayout.of(split).merged()).isFalse();
        long[][] prompts = OrtDecoderTest.prompts(2, 7, layout.vocab(), 9);
        for (EngineKind engine : new EngineKind[]{EngineKind.ORT}) {
            try (Decoder m = engine.openDecoder(merged, Device.CPU, EngineSettings.threads(1));
                 Decoder s = engine.openDecoder(split, Device.CPU, EngineSettings.threads(1))) {
                assertThat(OrtDecoderTest.greedy(m, prompts, 10, true))
                        .isDeepEqualTo(OrtDecoderTest.greedy(s, prompts, 10, true));
            }
        }
    }

    @Test
    void theSwitchSelects() throws Exception {
        Path merged = writeMerged(dir);
        long[] prompt = OrtDecoderTest.prompts(1, 6, 512, 2)[0];
        float[] withCache = secondStep(merged, prompt, true);
        float[] without = secondStep(merged, prompt, false);
        // false drops the past: the second token then sees itself alone, and its logits are another's
        double diff = 0;
        for (int v = 0; v < withCache.length; v++) {
            diff = Math.max(diff, Math.abs(withCache[v] - without[v]));
        }
        assertThat(diff).isGreaterThan(1e-3);
    }

    /** The logits of a second step, fed the first step's presents with the switch as given. */
    private static float[] secondStep(Path file, long[] prompt, boolean useCache) throws Exception {
        Llama c = Llama.tiny();
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        int p = prompt.length;
        try (OrtSession session = env.createSession(file.toString(), new OrtSession.SessionOptions())) {
            Map<String, OnnxTensor> in = new LinkedHashMap<>();
            in.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(prompt), new long[]{1, p}));
            in.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(ones(p)), new long[]{1, p}));
            in.put("position_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(range(0, p)), new long[]{1, p}));
            in.put(DecoderLayout.USE_CACHE_BRANCH, OnnxTensor.createTensor(env, new boolean[]{false}));
            for (int l = 0; l < c.layers(); l++) {
                for (String kv : new String[]{"key", "value"}) {
                    in.put("past_key_values." + l + "." + kv, OnnxTensor.createTensor(env, FloatBuffer.allocate(0),
                            new long[]{1, c.kvHeads(), 0, c.headDim()}));
                }
            }
            try (OrtSession.Result first = session.run(in)) {
                in.values().forEach(OnnxTensor::close);
                Map<String, OnnxTensor> next = new LinkedHashMap<>();
                next.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(new long[]{1}), new long[]{1, 1}));
                // the mask and positions of a cached step, whichever branch: only the switch differs
                int total = useCache ? p + 1 : 1;
                next.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(ones(total)),
                        new long[]{1, total}));
                next.put("position_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(new long[]{p}), new long[]{1, 1}));
                next.put(DecoderLayout.USE_CACHE_BRANCH, OnnxTensor.createTensor(env, new boolean[]{useCache}));
                Map<String, OnnxTensor> feed = new LinkedHashMap<>(next);
                for (int l = 0; l < c.layers(); l++) {
                    for (String kv : new String[]{"key", "value"}) {
                        feed.put("past_key_values." + l + "." + kv,
                                (OnnxTensor) first.get("present." + l + "." + kv).orElseThrow());
                    }
                }
                try (OrtSession.Result second = session.run(feed)) {
                    return ((float[][][]) second.get("logits").orElseThrow().getValue())[0][0];
                } finally {
                    next.values().forEach(OnnxTensor::close);
                }
            }
        }
    }

    private static long[] ones(int n) {
        long[] v = new long[n];
        Arrays.fill(v, 1);
        return v;
    }

    private static long[] range(int from, int to) {
        long[] v = new long[to - from];
        for (int i = 0; i < v.length; i++) {
            v[i] = from + i;
        }
        return v;
    }
}
