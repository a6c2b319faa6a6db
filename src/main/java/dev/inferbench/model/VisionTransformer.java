package dev.inferbench.model;

import dev.inferbench.model.Graph.Init;
import dev.inferbench.model.Graph.Value;

/**
 * The Vision Transformer in torchvision's layout: a strided convolution cuts the image into patches, a class token
 * is prepended, learned position embeddings added, then pre-norm encoder blocks (multi-head self-attention and a
 * GELU MLP, each with a residual), a final layer norm, and a linear head on the class token.
 * {@code vit_b_16}: 16x16 patches of 224x224, 12 layers, hidden 768, 12 heads, MLP 3072, 1000 classes.
 */
public record VisionTransformer(String name, int imageSize, int patch, int layers, int hidden, int heads, int mlp,
                                int classes) implements Architecture {

    public static VisionTransformer vitB16() {
        return new VisionTransformer("vit_b_16", 224, 16, 12, 768, 12, 3072, 1000);
    }

    public static VisionTransformer tiny() {
        return new VisionTransformer("vit-tiny", 32, 8, 2, 64, 4, 128, 10);
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        SequenceOps s = new SequenceOps(g);
        Value x = g.input(3, imageSize, imageSize);
        int grid = imageSize / patch;
        x = g.conv("conv_proj", x, hidden, patch, patch, 0, 1, true);
        x = s.transpose(s.reshape(x, hidden, (long) grid * grid), 1, 0);
        x = s.classToken("class_token", x);
        x = g.addParam("encoder.pos_embedding", x, new long[]{x.dim(0), hidden}, Init.uniform(0.02 * Math.sqrt(3)));
        for (int i = 0; i < layers; i++) {
            x = block(g, s, "encoder.layers.encoder_layer_" + i, x);
        }
        x = s.layerNorm("encoder.ln", x, 1e-6);
        x = g.linear("heads.head", s.select(x, 0, 0), classes);
        g.output("output", g.softmax(x));
        return g;
    }

    private Value block(Graph g, SequenceOps s, String p, Value x) {
        try (Graph.Scope block = g.scope(p)) {
            Value y = SelfAttention.apply(s, p + ".self_attention", s.layerNorm(p + ".ln_1", x, 1e-6), heads, null);
            x = g.add(x, y);
            y = s.layerNorm(p + ".ln_2", x, 1e-6);
            Value h = s.dense(p + ".mlp.0", y, mlp);
            try (Graph.Scope mlpScope = g.scope(p + ".mlp")) {
                h = s.gelu(h);
            }
            return g.add(x, s.dense(p + ".mlp.3", h, hidden));
        }
    }
}
