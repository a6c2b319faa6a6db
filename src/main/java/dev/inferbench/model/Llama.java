package dev.inferbench.model;

import dev.inferbench.model.Graph.Param;
import dev.inferbench.model.Graph.Value;
import dev.inferbench.tensor.TensorSpec.DType;

/**
 * A Llama-family decoder-only language model in Hugging Face's module layout (pre-norm RMSNorm, rotary position
 * embeddings, grouped-query attention, SwiGLU feed-forward, no biases, optionally tied input and output embeddings),
 * written as one step of cached generation in the layout Hugging Face Optimum exports for
 * {@code text-generation-with-past}: inputs {@code input_ids}, {@code attention_mask} (cached plus new positions),
 * {@code position_ids} and {@code past_key_values.N.key/value} {@code [batch, kvHeads, past, headDim]}; outputs
 * {@code logits} {@code [batch, seq, vocab]} and {@code present.N.key/value} (past and new). A first step (the prompt)
 * passes a past of length 0. {@code smollm2_135m} is SmolLM2-135M's configuration (134,515,008 parameters).
 *
 * @param context the longest sequence (prompt plus output) the model is declared for; rotary embeddings have no table
 *                that would enforce it, so it is written to the file's metadata for the harness to check
 */
public record Llama(String name, int vocab, int layers, int hidden, int heads, int kvHeads, int intermediate,
                    int context, double ropeTheta, boolean tied) implements Architecture {
    private static final double EPS = 1e-5;
    /** Metadata: the declared context length (prompt plus output tokens). */
    public static final String META_CONTEXT = "inferbench.decoder.context";

    public Llama {
        if (hidden % heads != 0 || heads % kvHeads != 0 || (hidden / heads) % 2 != 0) {
            throw new IllegalArgumentException(name + ": hidden " + hidden + ", heads " + heads + ", kv heads " + kvHeads
                    + " do not split into even heads and whole groups");
        }
    }

    /** SmolLM2-135M: hidden 576, 30 layers, 9 heads, 3 KV heads, MLP 1536, vocabulary 49,152, tied, 8192 context. */
    public static Llama smollm2() {
        return new Llama("smollm2_135m", 49152, 30, 576, 9, 3, 1536, 8192, 100000, true);
    }

    /** Two layers, hidden 64, 4 heads over 2 KV heads, vocabulary 512, context 256: for tests. */
    public static Llama tiny() {
        return new Llama("llama-tiny", 512, 2, 64, 4, 2, 128, 256, 10000, true);
    }

    public int headDim() {
        return hidden / heads;
    }

    /**
     * The configuration's parameter count in closed form, checked against the built graph in a test: the embedding,
     * per layer the q/o projections (hidden^2 each), k/v (hidden x kvHeads x headDim each), gate/up/down
     * (hidden x intermediate each) and two norms, the final norm, and an output head unless tied.
     */
    public long formulaParameters() {
        return formulaParameters(tied);
    }

    long formulaParameters(boolean tiedHead) {
        long kv = (long) kvHeads * headDim();
        long perLayer = 2L * hidden * hidden + 2L * hidden * kv + 3L * hidden * intermediate + 2L * hidden;
        return (long) vocab * hidden * (tiedHead ? 1 : 2) + layers * perLayer + hidden;
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        g.metadata(OnnxExporter.META_VOCAB, Integer.toString(vocab));
        g.metadata(META_CONTEXT, Integer.toString(context));
        SequenceOps s = new SequenceOps(g);
        DecoderOps d = new DecoderOps(g);
        Value ids = g.input("input_ids", DType.INT64, Graph.SEQ);
        Value mask = g.input("attention_mask", DType.INT64, Graph.TOTAL);
        Value positions = g.input("position_ids", DType.INT64, Graph.SEQ);
        Value[][] past = new Value[layers][2];
        for (int i = 0; i < layers; i++) {
            past[i][0] = g.input("past_key_values." + i + ".key", DType.FLOAT32, kvHeads, Graph.PAST, headDim());
            past[i][1] = g.input("past_key_values." + i + ".value", DType.FLOAT32, kvHeads, Graph.PAST, headDim());
        }
        Value x;
        Param table;
        try (Graph.Scope model = g.scope("model")) {
            x = s.embedding("model.embed_tokens", ids, vocab, hidden);
            table = g.nodes().get(g.nodes().size() - 1).params().get(0);
        }
        Value cos = d.ropeAngles(positions, headDim(), ropeTheta, false);
        Value sin = d.ropeAngles(positions, headDim(), ropeTheta, true);
        Value bias = d.causalBias(mask, ids);
        Value[][] present = new Value[layers][];
        for (int i = 0; i < layers; i++) {
            String p = "model.layers." + i;
            try (Graph.Scope layer = g.scope(p)) {
                Value h = d.rmsNorm(p + ".input_layernorm", x, EPS);
                DecoderAttention.Result a = DecoderAttention.apply(s, d, p + ".self_attn", h, heads, kvHeads, cos, sin,
                        bias, past[i][0], past[i][1]);
                present[i] = new Value[]{a.key(), a.value()};
                x = g.add(x, a.output());
                h = d.rmsNorm(p + ".post_attention_layernorm", x, EPS);
                try (Graph.Scope mlp = g.scope(p + ".mlp")) {
                    Value gate = d.silu(d.project(p + ".mlp.gate_proj", h, intermediate));
                    Value up = d.project(p + ".mlp.up_proj", h, intermediate);
                    x = g.add(x, d.project(p + ".mlp.down_proj", g.mul(gate, up), hidden));
                }
            }
        }
        try (Graph.Scope model = g.scope("model")) {
            x = d.rmsNorm("model.norm", x, EPS);
        }
        g.output("logits", tied ? d.projectTied("lm_head", x, table) : d.project("lm_head", x, vocab));
        for (int i = 0; i < layers; i++) {
            g.output("present." + i + ".key", present[i][0]);
            g.output("present." + i + ".value", present[i][1]);
        }
        return g;
    }
}
