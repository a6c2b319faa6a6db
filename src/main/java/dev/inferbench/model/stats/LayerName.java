package dev.inferbench.model.stats;

/**
 * What a node's name says about where it sits in the network. Zoo graphs name each node by its module path
 * ({@code layer1.0.conv1}, {@code encoder.layer.0.intermediate.gelu:erf} for an operator inside a layer), as
 * PyTorch's exporter does with slashes ({@code /layer1/layer1.0/conv1/Conv}). The module is what comes before the
 * last dot or slash; a name with neither (Tribuo's {@code Conv_0}) sits at the top level.
 */
public final class LayerName {
    /** How the top level (the empty module) is shown. */
    public static final String TOP = "(top level)";

    private LayerName() {
    }

    /** A graph node's name, or {@code OpType#index} for a node the file left unnamed. */
    public static String node(ai.onnx.proto.OnnxMl.NodeProto n, int index) {
        return n.getName().isEmpty() ? n.getOpType() + "#" + index : n.getName();
    }

    /** The layer a node belongs to: its name without the {@code :part} of an operator inside a layer. */
    public static String layer(String node) {
        int part = node.indexOf(':');
        return part < 0 ? node : node.substring(0, part);
    }

    /** The module of a node ({@code layer1.0} for {@code layer1.0.conv1}), "" for the top level. */
    public static String module(String node) {
        String layer = layer(node);
        int cut = Math.max(layer.lastIndexOf('.'), layer.lastIndexOf('/'));
        return cut <= 0 ? "" : layer.substring(0, cut);
    }

    /** The module as shown in tables: {@link #TOP} for the top level. */
    public static String shown(String module) {
        return module.isEmpty() ? TOP : module;
    }
}
