package dev.inferbench.model;

import dev.inferbench.model.Graph.Value;

/**
 * Grouped-query causal self-attention with a KV cache, as Llama computes it: q/k/v projections without bias, rotary
 * embeddings on q and k, the new keys and values appended to the cached ones (the step's {@code present}), each of
 * the {@code kvHeads} key/value heads shared by {@code heads / kvHeads} query heads, and the output projection.
 * The sharing is a broadcast, not a copy: queries are grouped {@code [kvHeads, groups, seq, d]} against keys
 * {@code [kvHeads, 1, d, total]}, which is Hugging Face's {@code repeat_kv} (query head h reads KV head h / groups).
 */
final class DecoderAttention {
    /** The attention's output {@code [seq, hidden]} and the cache after this step, {@code [kvHeads, total, d]}. */
    record Result(Value output, Value key, Value value) {
    }

    private DecoderAttention() {
    }

    static Result apply(SequenceOps s, DecoderOps d, String p, Value x, int heads, int kvHeads, Value cos, Value sin,
                        Value bias, Value pastKey, Value pastValue) {
        long hidden = x.dim(-1);
        int headDim = (int) (hidden / heads);
        int groups = heads / kvHeads;
        try (Graph.Scope module = s.graph().scope(p)) {
            Value q = d.rotary(split(s, d.project(p + ".q_proj", x, (int) hidden), heads, headDim), cos, sin);
            Value k = d.rotary(split(s, d.project(p + ".k_proj", x, kvHeads * headDim), kvHeads, headDim), cos, sin);
            Value v = split(s, d.project(p + ".v_proj", x, kvHeads * headDim), kvHeads, headDim);
            Value key = d.concat(pastKey, k, 1, Graph.TOTAL);
            Value value = d.concat(pastValue, v, 1, Graph.TOTAL);
            Value grouped = s.reshape(q, kvHeads, groups, Graph.SEQ, headDim);
            Value keysT = s.transpose(s.reshape(key, kvHeads, 1, Graph.TOTAL, headDim), 0, 1, 3, 2);
            Value scores = s.scale(s.matmul(grouped, keysT), 1 / Math.sqrt(headDim));
            scores = s.graph().add(scores, bias);
            Value context = s.matmul(s.softmax(scores, -1), s.reshape(value, kvHeads, 1, Graph.TOTAL, headDim));
            Value merged = s.reshape(s.transpose(s.reshape(context, heads, Graph.SEQ, headDim), 1, 0, 2),
                    Graph.SEQ, hidden);
            return new Result(d.project(p + ".o_proj", merged, (int) hidden), key, value);
        }
    }

    /** {@code [seq, heads * d] -> [heads, seq, d]}. */
    private static Value split(SequenceOps s, Value x, int heads, int headDim) {
        return s.transpose(s.reshape(x, x.dim(0), heads, headDim), 1, 0, 2);
    }
}
