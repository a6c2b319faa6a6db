package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto.DataType;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The element type of each value of an ONNX graph (TensorProto.DataType numbers), from the graph inputs, the
 * initializers and a type rule per operator: most operators keep their first input's type; casts, shape queries,
 * comparisons and the quantization operators say their own. {@link ShapeInference} gives the shapes; together they
 * give a tensor's bytes.
 */
final class ElementTypes {
    private static final Set<String> INT64_OUT = Set.of("Shape", "Size", "NonZero", "ArgMax", "ArgMin");
    private static final Set<String> BOOL_OUT = Set.of("Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual",
            "Not", "And", "Or", "Xor", "IsNaN", "IsInf");

    private final Map<String, Integer> types = new HashMap<>();

    ElementTypes(OnnxSummary model) {
        model.inputs().forEach(v -> types.put(v.getName(), v.getType().getTensorType().getElemType()));
        model.initializers().values().forEach(i -> types.put(i.name(), i.dataType()));
        for (NodeProto n : model.nodes()) {
            for (int o = 0; o < n.getOutputCount(); o++) {
                int t = rule(n, o);
                if (t != 0 && !n.getOutput(o).isEmpty()) {
                    types.put(n.getOutput(o), t);
                }
            }
        }
    }

    /** The value's element type, 0 when unknown. */
    int of(String value) {
        return types.getOrDefault(value, 0);
    }

    /** Bytes per element of an ONNX element type; 0 for strings and unknown types. */
    static int bytes(int dataType) {
        DataType t = DataType.forNumber(dataType);
        if (t == null) {
            return 0;
        }
        return switch (t) {
            case DOUBLE, INT64, UINT64, COMPLEX64 -> 8;
            case FLOAT, INT32, UINT32 -> 4;
            case FLOAT16, BFLOAT16, INT16, UINT16 -> 2;
            case UINT8, INT8, BOOL -> 1;
            default -> 0;
        };
    }

    private int rule(NodeProto n, int output) {
        String op = n.getOpType();
        if (INT64_OUT.contains(op) || op.equals("TopK") && output == 1) {
            return DataType.INT64_VALUE;
        }
        if (BOOL_OUT.contains(op)) {
            return DataType.BOOL_VALUE;
        }
        return switch (op) {
            case "Cast" -> (int) ShapeRules.attrInt(n, "to", 0);
            case "Constant" -> constantType(n);
            case "ConstantOfShape" -> ShapeRules.attribute(n, "value").map(a -> a.getT().getDataType())
                    .orElse(DataType.FLOAT_VALUE);
            case "QuantizeLinear" -> n.getInputCount() > 2 && !n.getInput(2).isEmpty() ? of(n.getInput(2))
                    : DataType.UINT8_VALUE;
            case "DynamicQuantizeLinear" -> output == 1 ? DataType.FLOAT_VALUE : DataType.UINT8_VALUE;
            case "DequantizeLinear" -> n.getInputCount() > 1 ? of(n.getInput(1)) : DataType.FLOAT_VALUE;
            case "QLinearConv", "QLinearMatMul" -> n.getInputCount() > 7 ? of(n.getInput(7)) : DataType.UINT8_VALUE;
            case "MatMulInteger", "ConvInteger" -> DataType.INT32_VALUE;
            case "Where" -> n.getInputCount() > 1 ? of(n.getInput(1)) : 0;
            default -> firstKnownInput(n);
        };
    }

    private static int constantType(NodeProto n) {
        for (OnnxMl.AttributeProto a : n.getAttributeList()) {
            switch (a.getName()) {
                case "value" -> {
                    return a.getT().getDataType();
                }
                case "value_int", "value_ints" -> {
                    return DataType.INT64_VALUE;
                }
                case "value_float", "value_floats" -> {
                    return DataType.FLOAT_VALUE;
                }
                default -> {
                }
            }
        }
        return 0;
    }

    private int firstKnownInput(NodeProto n) {
        for (String in : n.getInputList()) {
            int t = of(in);
            if (t != 0) {
                return t;
            }
        }
        return 0;
    }
}
