package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;
import dev.inferbench.tensor.TensorSpec.DType;

/**
 * BERT's encoder and pooler in Hugging Face's layout: word, position and token-type embeddings (token type 0, as
 * when no token_type_ids are given), post-norm encoder layers (self-attention with the attention mask, GELU
 * feed-forward), and a tanh pooler on the first token. Inputs: int64 {@code input_ids} and {@code attention_mask},
 * {@code [batch, seq]} with seq dynamic up to {@code positions}. {@code bert_base}: vocab 30522, 512 positions,
 * 2 token types, 12 layers, hidden 768, 12 heads, intermediate 3072.
 */
public record Bert(String name, int vocab, int positions, int tokenTypes, int layers, int hidden, int heads,
                   int intermediate) implements Architecture {
    private static final double EPS = 1e-12;

    public static Bert base() {
        return new Bert("bert_base", 30522, 512, 2, 12, 768, 12, 3072);
    }

    public static Bert tiny() {
        return new Bert("bert-tiny", 30522, 512, 2, 2, 128, 2, 512);
    }

    @Override
    public Graph build() {
        Graph g = new Graph(name);
        g.metadata(OnnxExporter.META_VOCAB, Integer.toString(vocab));
        SequenceOps s = new SequenceOps(g);
        Value ids = g.input("input_ids", DType.INT64, Graph.SEQ);
        Value mask = g.input("attention_mask", DType.INT64, Graph.SEQ);
        Value x = s.embedding("embeddings.word_embeddings", ids, vocab, hidden);
        x = s.positions("embeddings.position_embeddings", x, positions);
        x = s.addRow("embeddings.token_type_embeddings", x, tokenTypes, 0);
        x = s.layerNorm("embeddings.LayerNorm", x, EPS);
        Value bias = s.maskBias(mask);
        for (int i = 0; i < layers; i++) {
            String p = "encoder.layer." + i;
            Value a = SelfAttention.apply(s, p + ".attention.self", x, heads, bias);
            try (Graph.Scope output = g.scope(p + ".attention.output")) {
                x = s.layerNorm(p + ".attention.output.LayerNorm", g.add(x, a), EPS);
            }
            Value f;
            try (Graph.Scope intermediateScope = g.scope(p + ".intermediate")) {
                f = s.gelu(s.dense(p + ".intermediate.dense", x, intermediate));
            }
            try (Graph.Scope output = g.scope(p + ".output")) {
                x = s.layerNorm(p + ".output.LayerNorm", g.add(x, s.dense(p + ".output.dense", f, hidden)), EPS);
            }
        }
        g.output("last_hidden_state", x);
        try (Graph.Scope pooler = g.scope("pooler")) {
            g.output("pooler_output", s.tanh(s.dense("pooler.dense", s.select(x, 0, 0), hidden)));
        }
        return g;
    }
}
