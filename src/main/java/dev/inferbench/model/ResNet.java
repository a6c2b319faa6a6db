package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;

/**
 * ResNet in torchvision's layout (v1.5: the stride sits in the 3x3 convolution of a bottleneck). ResNet-50 is
 * {@code bottleneck, [3, 4, 6, 3]} at 224x224 with 1000 classes; the tiny variant used by tests has two basic blocks.
 */
public record ResNet(String name, boolean bottleneck, int[] blocks, int stemWidth, int imageSize, int classes)
        implements Architecture {

    private static final int[] STAGE_WIDTHS = {64, 128, 256, 512};
    /** Damps each residual branch (like torchvision's zero_init_residual, but not zero) so activations stay finite. */
    private static final double RESIDUAL_GAMMA = 0.2;

    public static ResNet resnet50() {
        return new ResNet("resnet50", true, new int[]{3, 4, 6, 3}, 64, 224, 1000);
    }

    public static ResNet tiny() {
        return new ResNet("resnet-tiny", false, new int[]{1, 1}, 16, 32, 10);
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        Value x = g.input(3, imageSize, imageSize);
        boolean imagenetStem = imageSize >= 64;
        x = g.conv("conv1", x, stemWidth, imagenetStem ? 7 : 3, imagenetStem ? 2 : 1, imagenetStem ? 3 : 1);
        x = g.relu(g.batchNorm("bn1", x, 1.0));
        if (imagenetStem) {
            x = g.maxPool(x, 3, 2, 1);
        }
        for (int stage = 0; stage < blocks.length; stage++) {
            int width = STAGE_WIDTHS[stage] * stemWidth / 64;
            for (int b = 0; b < blocks[stage]; b++) {
                int stride = stage > 0 && b == 0 ? 2 : 1;
                String prefix = "layer" + (stage + 1) + "." + b;
                try (Graph.Scope block = g.scope(prefix)) {
                    x = bottleneck ? bottleneck(g, prefix, x, width, stride) : basic(g, prefix, x, width, stride);
                }
            }
        }
        x = g.flatten(g.globalAvgPool(x));
        x = g.linear("fc", x, classes);
        g.output("output", g.softmax(x));
        return g;
    }

    private static Value bottleneck(Graph g, String p, Value x, int width, int stride) {
        int out = width * 4;
        Value y = g.relu(g.batchNorm(p + ".bn1", g.conv(p + ".conv1", x, width, 1, 1, 0), 1.0));
        y = g.relu(g.batchNorm(p + ".bn2", g.conv(p + ".conv2", y, width, 3, stride, 1), 1.0));
        y = g.batchNorm(p + ".bn3", g.conv(p + ".conv3", y, out, 1, 1, 0), RESIDUAL_GAMMA);
        return g.relu(g.add(y, shortcut(g, p, x, out, stride)));
    }

    private static Value basic(Graph g, String p, Value x, int width, int stride) {
        Value y = g.relu(g.batchNorm(p + ".bn1", g.conv(p + ".conv1", x, width, 3, stride, 1), 1.0));
        y = g.batchNorm(p + ".bn2", g.conv(p + ".conv2", y, width, 3, 1, 1), RESIDUAL_GAMMA);
        return g.relu(g.add(y, shortcut(g, p, x, width, stride)));
    }

    private static Value shortcut(Graph g, String p, Value x, int out, int stride) {
        if (stride == 1 && x.shape()[0] == out) {
            return x;
        }
        return g.batchNorm(p + ".downsample.1", g.conv(p + ".downsample.0", x, out, 1, stride, 0), 1.0);
    }
}
