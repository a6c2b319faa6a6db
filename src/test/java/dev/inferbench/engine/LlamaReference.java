package dev.inferbench.engine;

import dev.inferbench.model.Llama;

import java.nio.FloatBuffer;
import java.util.Map;

/**
 * A plain forward pass of the Llama architecture, written from the architecture's definition (Hugging Face's
 * {@code LlamaModel}) and not from the zoo's graph: embedding, per layer RMSNorm, q/k/v projections, rotary position
 * embeddings with the {@code rotate_half} pairing, grouped-query causal attention (query head h reads KV head
 * h / groups), the output projection, RMSNorm, SwiGLU, and after the layers the final RMSNorm and the LM head
 * (the embedding table, tied). Computed in double over the weights of the model file, one sequence, no cache: every
 * position attends to itself and the ones before it. Only the configuration (sizes, rope base) is taken from
 * {@link Llama}; the rope base can be overridden to show that a comparison against it can fail.
 */
final class LlamaReference {
    private static final double EPS = 1e-5;
    private final Llama config;
    private final double ropeTheta;
    private final Map<String, FloatBuffer> w;

    LlamaReference(Llama config, double ropeTheta, Map<String, FloatBuffer> weights) {
        this.config = config;
        this.ropeTheta = ropeTheta;
        this.w = weights;
    }

    /** The logits {@code [tokens, vocab]} of every position of one sequence. */
    double[][] logits(long[] tokens) {
        int n = tokens.length;
        int hidden = config.hidden();
        double[][] x = new double[n][];
        FloatBuffer table = weight("model.embed_tokens.weight");
        for (int t = 0; t < n; t++) {
            x[t] = row(table, (int) tokens[t], hidden);
        }
        for (int l = 0; l < config.layers(); l++) {
            String p = "model.layers." + l;
            double[][] attention = attention(p + ".self_attn", rmsNorm(x, p + ".input_layernorm.weight"));
            add(x, attention);
            double[][] h = rmsNorm(x, p + ".post_attention_layernorm.weight");
            double[][] gate = project(h, p + ".mlp.gate_proj.weight", config.intermediate());
            double[][] up = project(h, p + ".mlp.up_proj.weight", config.intermediate());
            for (int t = 0; t < n; t++) {
                for (int i = 0; i < gate[t].length; i++) {
                    double g = gate[t][i];
                    gate[t][i] = g / (1 + Math.exp(-g)) * up[t][i];
                }
            }
            add(x, project(gate, p + ".mlp.down_proj.weight", hidden));
        }
        double[][] h = rmsNorm(x, "model.norm.weight");
        double[][] out = new double[n][config.vocab()];
        for (int t = 0; t < n; t++) {
            for (int v = 0; v < config.vocab(); v++) {
                double s = 0;
                for (int i = 0; i < hidden; i++) {
                    s += h[t][i] * table.get(v * hidden + i);
                }
                out[t][v] = s;
            }
        }
        return out;
    }

    private double[][] attention(String p, double[][] h) {
        int n = h.length;
        int d = config.headDim();
        int heads = config.heads();
        int groups = heads / config.kvHeads();
        double[][] q = project(h, p + ".q_proj.weight", heads * d);
        double[][] k = project(h, p + ".k_proj.weight", config.kvHeads() * d);
        double[][] v = project(h, p + ".v_proj.weight", config.kvHeads() * d);
        for (int t = 0; t < n; t++) {
            for (int head = 0; head < heads; head++) {
                rotate(q[t], head * d, d, t);
            }
            for (int head = 0; head < config.kvHeads(); head++) {
                rotate(k[t], head * d, d, t);
            }
        }
        double[][] context = new double[n][heads * d];
        for (int head = 0; head < heads; head++) {
            int kv = head / groups * d;
            for (int t = 0; t < n; t++) {
                double[] scores = new double[t + 1];
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j <= t; j++) {
                    double s = 0;
                    for (int i = 0; i < d; i++) {
                        s += q[t][head * d + i] * k[j][kv + i];
                    }
                    scores[j] = s / Math.sqrt(d);
                    max = Math.max(max, scores[j]);
                }
                double sum = 0;
                for (int j = 0; j <= t; j++) {
                    scores[j] = Math.exp(scores[j] - max);
                    sum += scores[j];
                }
                for (int j = 0; j <= t; j++) {
                    for (int i = 0; i < d; i++) {
                        context[t][head * d + i] += scores[j] / sum * v[j][kv + i];
                    }
                }
            }
        }
        return project(context, p + ".o_proj.weight", config.hidden());
    }

    /** One head's rotary embedding at {@code position}: lane i pairs with lane i + d/2, angle position * base^(-2i/d). */
    private void rotate(double[] x, int from, int d, int position) {
        int half = d / 2;
        for (int i = 0; i < half; i++) {
            double angle = position * Math.pow(ropeTheta, -2.0 * i / d);
            double a = x[from + i];
            double b = x[from + half + i];
            x[from + i] = a * Math.cos(angle) - b * Math.sin(angle);
            x[from + half + i] = b * Math.cos(angle) + a * Math.sin(angle);
        }
    }

    private double[][] rmsNorm(double[][] x, String weight) {
        FloatBuffer g = weight(weight);
        double[][] out = new double[x.length][];
        for (int t = 0; t < x.length; t++) {
            double sq = 0;
            for (double v : x[t]) {
                sq += v * v;
            }
            double scale = 1 / Math.sqrt(sq / x[t].length + EPS);
            out[t] = new double[x[t].length];
            for (int i = 0; i < x[t].length; i++) {
                out[t][i] = x[t][i] * scale * g.get(i);
            }
        }
        return out;
    }

    /** {@code x @ W} with W stored {@code [in, out]}, as the zoo (and torch's transposed Linear weight) holds it. */
    private double[][] project(double[][] x, String weight, int outWidth) {
        FloatBuffer m = weight(weight);
        int in = x[0].length;
        if (m.capacity() != in * outWidth) {
            throw new IllegalStateException(weight + " holds " + m.capacity() + " values, not " + in + " x " + outWidth);
        }
        double[][] out = new double[x.length][outWidth];
        for (int t = 0; t < x.length; t++) {
            for (int i = 0; i < in; i++) {
                double xi = x[t][i];
                for (int o = 0; o < outWidth; o++) {
                    out[t][o] += xi * m.get(i * outWidth + o);
                }
            }
        }
        return out;
    }

    private FloatBuffer weight(String name) {
        FloatBuffer b = w.get(name);
        if (b == null) {
            throw new IllegalStateException("the model file has no float initializer " + name + "; it has " + w.keySet());
        }
        return b;
    }

    private static double[] row(FloatBuffer table, int r, int width) {
        double[] out = new double[width];
        for (int i = 0; i < width; i++) {
            out[i] = table.get(r * width + i);
        }
        return out;
    }

    private static void add(double[][] x, double[][] y) {
        for (int t = 0; t < x.length; t++) {
            for (int i = 0; i < x[t].length; i++) {
                x[t][i] += y[t][i];
            }
        }
    }
}
