package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.NodeProto;

/**
 * Multiply-accumulates of one inference, counted the way torchvision's published figures are: convolutions
 * (grouped included: each output element costs {@code C_in / groups x kernel} MACs), Gemm and MatMul (including
 * the attention products Q K^T and A V). Element-wise ops, norms, pooling and softmax are not counted.
 */
final class MacCounter {
    private long macs;
    private int uncounted;

    MacCounter(OnnxSummary model, ShapeInference shapes) {
        for (NodeProto n : model.nodes()) {
            String op = n.getOpType();
            switch (op) {
                case "Conv", "ConvInteger" -> count(shapes.shape(n.getOutput(0)), kernelVolume(shapes.shape(n.getInput(1))));
                case "QLinearConv" -> count(shapes.shape(n.getOutput(0)), kernelVolume(shapes.shape(n.getInput(3))));
                case "Gemm" -> {
                    long[] a = shapes.shape(n.getInput(0));
                    long k = a == null ? -1 : ShapeRules.attrInt(n, "transA", 0) == 1 ? a[0] : a[1];
                    count(shapes.shape(n.getOutput(0)), k);
                }
                case "MatMul", "MatMulInteger", "QLinearMatMul" -> {
                    long[] a = shapes.shape(n.getInput(0));
                    count(shapes.shape(n.getOutput(0)), a == null ? -1 : a[a.length - 1]);
                }
                default -> {
                }
            }
        }
    }

    /** MACs of the whole graph at the shapes it was inferred with. */
    long macs() {
        return macs;
    }

    /** Conv/Gemm/MatMul nodes whose shapes could not be inferred, so their cost is missing from {@link #macs}. */
    int uncounted() {
        return uncounted;
    }

    private void count(long[] out, long perOutput) {
        if (out == null || perOutput < 0) {
            uncounted++;
            return;
        }
        macs += ShapeRules.product(out, 0, out.length) * perOutput;
    }

    private static long kernelVolume(long[] weight) {
        return weight == null ? -1 : ShapeRules.product(weight, 1, weight.length);
    }
}
