package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;

/**
 * Multi-head scaled dot-product self-attention over a {@code [seq, hidden]} value, as BERT and ViT compute it:
 * separate query, key and value projections (torchvision fuses them into one in_proj of the same size), scores
 * {@code Q K^T / sqrt(d)} plus an optional mask bias, softmax over keys, and an output projection.
 */
final class SelfAttention {
    private SelfAttention() {
    }

    /** @param maskBias {@code [1, 1, seq]} added to the scores, or null for no mask */
    static Value apply(SequenceOps s, String p, Value x, int heads, Value maskBias) {
        long hidden = x.dim(-1);
        long headDim = hidden / heads;
        try (Graph.Scope module = s.graph().scope(p)) {
            Value q = split(s, s.dense(p + ".query", x, (int) hidden), heads, headDim);
            Value k = split(s, s.dense(p + ".key", x, (int) hidden), heads, headDim);
            Value v = split(s, s.dense(p + ".value", x, (int) hidden), heads, headDim);
            Value scores = s.scale(s.matmul(q, s.transpose(k, 0, 2, 1)), 1 / Math.sqrt(headDim));
            if (maskBias != null) {
                scores = s.graph().add(scores, maskBias);
            }
            Value context = s.matmul(s.softmax(scores, -1), v);
            Value merged = s.reshape(s.transpose(context, 1, 0, 2), x.dim(0), hidden);
            return s.dense(p + ".out_proj", merged, (int) hidden);
        }
    }

    /** {@code [seq, hidden] -> [heads, seq, headDim]}. */
    private static Value split(SequenceOps s, Value x, int heads, long headDim) {
        return s.transpose(s.reshape(x, x.dim(0), heads, headDim), 1, 0, 2);
    }
}
