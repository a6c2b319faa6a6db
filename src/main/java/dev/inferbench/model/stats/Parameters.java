package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import dev.inferbench.model.OnnxReader.Initializer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parameters of a file that is not a zoo model: the elements of every tensor the file stores, wherever it
 * stores it. Exporters put weights in initializers, in Constant nodes (constant folding and some OCR and detection
 * exports) and in the initializers of If/Loop/Scan bodies; a tensor with external data counts by its dims.
 * Not parameters: int64 and bool tensors (shapes, axes, indices, pads, flags: nothing a network learns has those
 * types) and the scales and zero points of quantization, so an int8 model counts the weights it quantized, once.
 * A scale is known by where it goes: a scale or zero-point input of a quantized operator, or a factor of a Mul that
 * rescales the integer sum by DynamicQuantizeLinear's scale (ONNX Runtime's dynamic quantization).
 */
final class Parameters {
    /** Per quantized operator, the input positions that hold scales and zero points. */
    private static final Map<String, Set<Integer>> QUANTIZATION = Map.ofEntries(
            Map.entry("QuantizeLinear", Set.of(1, 2)),
            Map.entry("DequantizeLinear", Set.of(1, 2)),
            Map.entry("ConvInteger", Set.of(2, 3)),
            Map.entry("MatMulInteger", Set.of(2, 3)),
            Map.entry("MatMulIntegerToFloat", Set.of(2, 3, 4, 5)),
            Map.entry("QLinearConv", Set.of(1, 2, 4, 5, 6, 7)),
            Map.entry("QLinearMatMul", Set.of(1, 2, 4, 5, 6, 7)),
            Map.entry("QLinearAdd", Set.of(1, 2, 4, 5, 6, 7)),
            Map.entry("QLinearMul", Set.of(1, 2, 4, 5, 6, 7)),
            Map.entry("QGemm", Set.of(1, 2, 4, 5, 7, 8)),
            Map.entry("QLinearGlobalAveragePool", Set.of(1, 2, 3, 4)),
            Map.entry("QLinearAveragePool", Set.of(1, 2, 3, 4)),
            Map.entry("QLinearSigmoid", Set.of(1, 2, 3, 4)),
            Map.entry("QLinearLeakyRelu", Set.of(1, 2, 3, 4)));

    private final List<Initializer> tensors = new ArrayList<>();
    private final Set<String> stored = new HashSet<>();
    private final Set<String> quantization = new HashSet<>();
    /** DynamicQuantizeLinear's scales, and their products with stored scales. */
    private final Set<String> dynamicScales = new HashSet<>();

    private Parameters() {
    }

    static long count(OnnxSummary model) {
        Parameters p = new Parameters();
        model.initializers().values().forEach(p::store);
        Subgraphs.forEach(model.nodes(), p::visit);
        return p.tensors.stream().filter(t -> t.dataType() != TensorProto.DataType.INT64_VALUE
                        && t.dataType() != TensorProto.DataType.BOOL_VALUE)
                .filter(t -> !p.quantization.contains(t.name())).mapToLong(Initializer::elements).sum();
    }

    private void visit(NodeProto n) {
        constant(n);
        for (GraphProto g : Subgraphs.of(n)) {
            g.getInitializerList().forEach(t -> store(TensorValues.of(t.getName(), t)));
        }
        for (int i = 0; i < n.getInputCount(); i++) {
            if (isQuantization(n.getOpType(), i)) {
                quantization.add(n.getInput(i));
            }
        }
        if (n.getOpType().equals("DynamicQuantizeLinear") && n.getOutputCount() > 1) {
            dynamicScales.add(n.getOutput(1));
        } else if (n.getOpType().equals("Mul") && n.getInputList().stream().anyMatch(dynamicScales::contains)
                && n.getInputList().stream().allMatch(in -> dynamicScales.contains(in) || stored.contains(in))) {
            quantization.addAll(n.getInputList());
            dynamicScales.add(n.getOutput(0));
        }
    }

    private void store(Initializer t) {
        tensors.add(t);
        stored.add(t.name());
    }

    private void constant(NodeProto n) {
        if (!n.getOpType().equals("Constant") || n.getOutputCount() == 0) {
            return;
        }
        String name = n.getOutput(0);
        for (AttributeProto a : n.getAttributeList()) {
            switch (a.getName()) {
                case "value" -> store(TensorValues.of(name, a.getT()));
                case "sparse_value" -> store(TensorValues.of(name, a.getSparseTensor().getValues()));
                case "value_float" -> store(floats(name));
                case "value_floats" -> store(floats(name, a.getFloatsCount()));
                default -> {
                    // value_int(s) and value_string(s): shapes and labels, not weights
                }
            }
        }
    }

    private static Initializer floats(String name, long... dims) {
        return new Initializer(name, TensorProto.DataType.FLOAT_VALUE, dims, null);
    }

    /** QLinearConcat takes y_scale, y_zero_point, then (tensor, scale, zero point) per input. */
    private static boolean isQuantization(String op, int input) {
        if (op.equals("QLinearConcat")) {
            return input < 2 || (input - 2) % 3 != 0;
        }
        return QUANTIZATION.getOrDefault(op, Set.of()).contains(input);
    }
}
