package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.NodeProto;

import java.util.List;

/**
 * Multiply-accumulates of one inference, counted the way torchvision's published figures are: convolutions
 * (grouped included: each output element costs {@code C_in / groups x kernel} MACs), Gemm and MatMul (including
 * the attention products Q K^T and A V), in float or through the integer kernels of a quantized file (ConvInteger,
 * QLinearConv, MatMulInteger, QLinearMatMul, QGemm), which do the same multiply-accumulates on int8.
 * Element-wise ops, norms, pooling, softmax and the quantize/dequantize steps are not counted.
 * <p>
 * Control flow: an If costs its larger branch (the file does not say which one runs, and a model that checks its
 * input first runs the whole network in one branch and a fallback in the other), so for an If the figure is the
 * cost of the more expensive path. A Loop or Scan body costs its MACs once per iteration when the trip count is
 * known (Loop's M, the most it runs; Scan's scanned length); when it is not, the body is counted once and the
 * figure is a lower bound.
 */
final class MacCounter {
    private long macs;
    private int uncounted;

    MacCounter(ShapeInference graph) {
        for (NodeProto n : graph.nodes) {
            switch (n.getOpType()) {
                case "Conv", "ConvInteger" -> conv(graph, n, 1);
                case "QLinearConv" -> conv(graph, n, 3);
                case "Gemm" -> gemm(graph, n, 1);
                case "QGemm" -> gemm(graph, n, 3);
                case "MatMul", "MatMulInteger", "MatMulIntegerToFloat", "QLinearMatMul" -> {
                    long[] a = graph.shape(n.getInput(0));
                    count(graph.shape(n.getOutput(0)), a == null ? -1 : a[a.length - 1]);
                }
                case "If", "Loop", "Scan" -> control(graph, n);
                default -> {
                }
            }
        }
    }

    /** MACs of the whole graph at the shapes it was inferred with. */
    long macs() {
        return macs;
    }

    /**
     * Nodes whose cost is missing from {@link #macs}: Conv/Gemm/MatMul whose shapes could not be inferred, and
     * loops with a body that costs MACs and an unknown trip count.
     */
    int uncounted() {
        return uncounted;
    }

    private void conv(ShapeInference g, NodeProto n, int weight) {
        long[] w = g.shape(n.getInput(weight));
        count(g.shape(n.getOutput(0)), w == null ? -1 : ShapeRules.product(w, 1, w.length));
    }

    private void gemm(ShapeInference g, NodeProto n, int b) {
        long[] a = g.shape(n.getInput(0));
        long k = a == null ? -1 : ShapeRules.attrInt(n, "transA", 0) == 1 ? a[0] : a[1];
        count(g.shape(n.getOutput(0)), g.shape(n.getInput(b)) == null ? -1 : k);
    }

    private void control(ShapeInference g, NodeProto n) {
        List<ShapeInference> bodies = g.bodies.get(n);
        if (bodies == null) {
            uncounted++; // the body could not be read at all
            return;
        }
        if (n.getOpType().equals("If")) {
            MacCounter then = new MacCounter(bodies.get(0));
            MacCounter other = new MacCounter(bodies.get(1));
            macs += Math.max(then.macs, other.macs);
            uncounted += then.uncounted + other.uncounted;
            return;
        }
        MacCounter body = new MacCounter(bodies.get(0));
        long trips = g.trips.getOrDefault(n, -1L);
        macs += trips >= 0 ? body.macs * trips : body.macs;
        uncounted += body.uncounted + (trips < 0 && body.macs > 0 ? 1 : 0);
    }

    /** An output dimension below 0 is a shape inferred from an input too short for the node: not a cost. */
    private void count(long[] out, long perOutput) {
        if (out == null || perOutput < 0 || java.util.Arrays.stream(out).anyMatch(d -> d < 0)) {
            uncounted++;
            return;
        }
        macs += ShapeRules.product(out, 0, out.length) * perOutput;
    }
}
