package dev.inferbench.model;

import ai.onnx.proto.OnnxMl.AttributeProto.AttributeType;
import org.tribuo.util.onnx.ONNXAttribute;
import org.tribuo.util.onnx.ONNXOperator;
import org.tribuo.util.onnx.ONNXOperators;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The convolutional-network operators Tribuo's {@link ONNXOperators} lacks, at the same opset. */
enum OnnxOps implements ONNXOperator {
    CONV("Conv", 2, 1, attrs("kernel_shape", AttributeType.INTS, "strides", AttributeType.INTS,
            "pads", AttributeType.INTS, "group", AttributeType.INT)),
    BATCH_NORMALIZATION("BatchNormalization", 5, 0, attrs("epsilon", AttributeType.FLOAT)),
    RELU("Relu", 1, 0, Map.of()),
    MAX_POOL("MaxPool", 1, 0, attrs("kernel_shape", AttributeType.INTS, "strides", AttributeType.INTS,
            "pads", AttributeType.INTS)),
    GLOBAL_AVERAGE_POOL("GlobalAveragePool", 1, 0, Map.of()),
    FLATTEN("Flatten", 1, 0, attrs("axis", AttributeType.INT));

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
        return ONNXOperators.getOpsetVersion();
    }

    @Override
    public String getOpDomain() {
        return ONNXOperators.getOpsetProto().getDomain();
    }
}
