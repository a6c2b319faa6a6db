package dev.inferbench.engine;

import dev.inferbench.tensor.Half;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;

/** A float16 model's logits at the boundary: each sequence's last position only, as bits or as float32. */
final class HalfLogits {
    private final int batch;
    private final int vocab;
    private final float[] floats;
    private final FloatBuffer rows;
    private final short[] bits;

    HalfLogits(int batch, int vocab) {
        this.batch = batch;
        this.vocab = vocab;
        this.floats = new float[batch * vocab];
        this.rows = FloatBuffer.wrap(floats);
        this.bits = new short[batch * vocab];
    }

    /**
     * @param logits {@code [batch, n, vocab]} float16 in native order; returns each sequence's last position,
     *               {@code [batch, vocab]} float16 bits, each row copied out in one bulk read
     */
    short[] lastBits(ByteBuffer logits, int n) {
        ShortBuffer h = logits.asShortBuffer();
        for (int s = 0; s < batch; s++) {
            h.get((s * n + n - 1) * vocab, bits, s * vocab, vocab);
        }
        return bits;
    }

    /**
     * @param logits as above; returns {@code [batch, 1, vocab]} float32: {@link #lastBits} converted by table
     *               lookup, for a choice that reads float32
     */
    FloatBuffer lastPositions(ByteBuffer logits, int n) {
        Half.toFloats(lastBits(logits, n), floats, 0, batch * vocab);
        return rows;
    }
}
