package dev.inferbench.engine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/** Reused direct buffers for a step's ids, mask and positions, grown when a step needs more. */
final class StepBuffers {
    private LongBuffer ids = LongBuffer.allocate(0);
    private LongBuffer mask = LongBuffer.allocate(0);
    private LongBuffer positions = LongBuffer.allocate(0);

    void fill(long[] tokens, int batch, int n, int cached, Padding padding) {
        ids = ensure(ids, batch * n);
        positions = ensure(positions, batch * n);
        int total = cached + n;
        mask = ensure(mask, batch * total);
        ids.clear();
        ids.put(tokens, 0, batch * n);
        for (int s = 0; s < batch; s++) {
            for (int i = 0; i < n; i++) {
                positions.put(s * n + i, padding.position(s, cached + i));
            }
            for (int j = 0; j < total; j++) {
                mask.put(s * total + j, padding.mask(s, j));
            }
        }
    }

    LongBuffer ids(int count) {
        return view(ids, count);
    }

    LongBuffer mask(int count) {
        return view(mask, count);
    }

    LongBuffer positions(int count) {
        return view(positions, count);
    }

    private static LongBuffer view(LongBuffer b, int count) {
        LongBuffer v = b.duplicate();
        v.clear().limit(count);
        return v.slice();
    }

    private static LongBuffer ensure(LongBuffer b, int count) {
        if (b.capacity() >= count) {
            return b;
        }
        return ByteBuffer.allocateDirect(Math.max(count, 2 * b.capacity()) * 8).order(ByteOrder.nativeOrder())
                .asLongBuffer();
    }
}
