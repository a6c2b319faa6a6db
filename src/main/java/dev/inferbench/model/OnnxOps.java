package dev.inferbench.model;

import ai.onnx.proto.OnnxMl.AttributeProto.AttributeType;
import org.tribuo.util.onnx.ONNXAttribute;
import org.tribuo.util.onnx.ONNXOperator;
import org.tribuo.util.onnx.ONNXOperators;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The operators Tribuo's {@link ONNXOperators} lacks, as defined at opset {@value #OPSET}. */
enum OnnxOps implements ONNXOperator {
    CONV("Conv", 2, 1, attrs("kernel_shape", AttributeType.INTS, "strides", AttributeType.INTS,
            "pads", AttributeType.INTS, "group", AttributeType.INT)),
    BATCH_NORMALIZATION("BatchNormalization", 5, 0, attrs("epsilon", AttributeType.FLOAT)),
    RELU("Relu", 1, 0, Map.of()),
    MAX_POOL("MaxPool", 1, 0, attrs("kernel_shape", AttributeType.INTS, "strides", AttributeType.INTS,
            "pads", AttributeType.INTS)),
    GLOBAL_AVERAGE_POOL("GlobalAveragePool", 1, 0, Map.of()),
    FLATTEN("Flatten", 1, 0, attrs("axis", AttributeType.INT)),
    CLIP("Clip", 1, 2, Map.of()),
    MAT_MUL("MatMul", 2, 0, Map.of()),
    LAYER_NORMALIZATION("LayerNormalization", 2, 1, attrs("axis", AttributeType.INT, "epsilon", AttributeType.FLOAT)),
    ERF("Erf", 1, 0, Map.of()),
    TANH("Tanh", 1, 0, Map.of()),
    RESHAPE("Reshape", 2, 0, Map.of()),
    TRANSPOSE("Transpose", 1, 0, attrs("perm", AttributeType.INTS)),
    SHAPE("Shape", 1, 0, Map.of()),
    SLICE("Slice", 3, 2, Map.of()),
    EXPAND("Expand", 2, 0, Map.of()),
    SQRT("Sqrt", 1, 0, Map.of()),
    COS("Cos", 1, 0, Map.of()),
    SIN("Sin", 1, 0, Map.of()),
    RANGE("Range", 3, 0, Map.of()),
    SQUEEZE("Squeeze", 1, 1, Map.of());

    /** LayerNormalization needs 17; ONNX Runtime 1.29 reads up to 21+. */
    static final int OPSET = 17;

    private final String opName;
    private final int inputs;
    private final int optionalInputs;
    private final Map<String, ONNXAttribute> attributes;

    OnnxOps(String opName, int inputs, int optionalInputs, Map<String, ONNXAttribute> attributes) {
        this.opName = opName;
        this.inputs = inputs;
        this.optionalInputs = optionalInputs;
        this.attributes = Collections.unmodifiableMap(attributes);
    }

    /** Name/type pairs, in order; none mandatory (ONNX gives each a default). */
    private static Map<String, ONNXAttribute> attrs(Object... nameTypePairs) {
        Map<String, ONNXAttribute> m = new LinkedHashMap<>();
        for (int i = 0; i < nameTypePairs.length; i += 2) {
            String name = (String) nameTypePairs[i];
            m.put(name, new ONNXAttribute(name, (AttributeType) nameTypePairs[i + 1], false));
        }
        return m;
    }

    @Override
    public String getOpName() {
        return opName;
    }

    @Override
    public int getNumInputs() {
        return inputs;
    }

    @Override
    public int getNumOptionalInputs() {
        return optionalInputs;
    }

    @Override
    public int getNumOutputs() {
        return 1;
    }

    @Override
    public Map<String, ONNXAttribute> getAttributes() {
        return attributes;
    }

    @Override
    public Set<String> getMandatoryAttributeNames() {
        return Set.of();
    }

    @Override
    public int getOpVersion() {
        return OPSET;
    }

    @Override
    public String getOpDomain() {
        return ONNXOperators.getOpsetProto().getDomain();
    }
}
