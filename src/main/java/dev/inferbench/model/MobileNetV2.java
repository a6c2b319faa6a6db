package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;

/**
 * MobileNetV2 in torchvision's layout: inverted residual blocks (1x1 expand, 3x3 depthwise, 1x1 linear project),
 * ReLU6, batch norm after every convolution, a 1x1 conv to 1280 channels and a linear classifier.
 * {@code mobilenet_v2} has width 1.0 at 224x224 with 1000 classes.
 */
public record MobileNetV2(String name, int imageSize, int classes, int[][] settings, int lastChannels)
        implements Architecture {

    /** Expansion t, output channels c, repeats n, first stride s: the table of the paper and torchvision. */
    private static final int[][] IMAGENET = {
            {1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
    /** Damps the residual branch like {@link ResNet} does, so the stacked additions stay finite. */
    private static final double RESIDUAL_GAMMA = 0.2;

    public static MobileNetV2 mobilenetV2() {
        return new MobileNetV2("mobilenet_v2", 224, 1000, IMAGENET, 1280);
    }

    public static MobileNetV2 tiny() {
        return new MobileNetV2("mobilenet-tiny", 32, 10, new int[][]{{1, 16, 1, 1}, {6, 24, 2, 2}}, 64);
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        Value x = g.input(3, imageSize, imageSize);
        int in = 32;
        x = convBnRelu6(g, "features.0", x, in, 3, 2, 1);
        int layer = 1;
        for (int[] s : settings) {
            for (int i = 0; i < s[2]; i++) {
                x = invertedResidual(g, "features." + layer++, x, in, s[1], i == 0 ? s[3] : 1, s[0]);
                in = s[1];
            }
        }
        x = convBnRelu6(g, "features." + layer, x, lastChannels, 1, 1, 1);
        x = g.flatten(g.globalAvgPool(x));
        x = g.linear("classifier.1", x, classes);
        g.output("output", g.softmax(x));
        return g;
    }

    private static Value invertedResidual(Graph g, String p, Value x, int in, int out, int stride, int expand) {
        int hidden = in * expand;
        Value y = x;
        int conv = 0;
        if (expand != 1) {
            y = convBnRelu6(g, p + ".conv." + conv++, y, hidden, 1, 1, 1);
        }
        y = convBnRelu6(g, p + ".conv." + conv++, y, hidden, 3, stride, hidden);
        boolean residual = stride == 1 && in == out;
        y = g.conv(p + ".conv." + conv, y, out, 1, 1, 0, 1, false);
        y = g.batchNorm(p + ".conv." + (conv + 1), y, residual ? RESIDUAL_GAMMA : 1.0);
        try (Graph.Scope block = g.scope(p)) {
            return residual ? g.add(x, y) : y;
        }
    }

    private static Value convBnRelu6(Graph g, String p, Value x, int out, int kernel, int stride, int groups) {
        try (Graph.Scope block = g.scope(p)) {
            Value y = g.conv(p + ".0", x, out, kernel, stride, (kernel - 1) / 2, groups, false);
            return g.clip(g.batchNorm(p + ".1", y, 1.0), 0, 6);
        }
    }
}
