package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.NodeProto;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The graphs a node holds in its attributes (If's two branches, Loop's and Scan's body). Exporters put whole
 * networks there (a model that checks its input's shape first runs everything inside an If), so every figure that
 * walks a graph's nodes walks these too.
 */
final class Subgraphs {
    private Subgraphs() {
    }

    /** The node's graph attributes in attribute order; empty for an ordinary operator. */
    static List<GraphProto> of(NodeProto n) {
        List<GraphProto> out = new ArrayList<>();
        for (AttributeProto a : n.getAttributeList()) {
            if (a.hasG()) {
                out.add(a.getG());
            }
            out.addAll(a.getGraphsList());
        }
        return out;
    }

    /** The graph attribute called {@code name}, or null when the node has none. */
    static GraphProto named(NodeProto n, String name) {
        return n.getAttributeList().stream().filter(a -> a.getName().equals(name) && a.hasG())
                .map(AttributeProto::getG).findFirst().orElse(null);
    }

    /** Visits each node, and right after it the nodes of its subgraphs, at any depth. */
    static void forEach(List<NodeProto> nodes, Consumer<NodeProto> visit) {
        for (NodeProto n : nodes) {
            visit.accept(n);
            for (GraphProto g : of(n)) {
                forEach(g.getNodeList(), visit);
            }
        }
    }
}
