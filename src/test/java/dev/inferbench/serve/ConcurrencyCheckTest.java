package dev.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check against stub engines: callers with outputs of their own pass; callers that write into one shared output
 * buffer fail. The shared-buffer stub's call writes its output, then waits (up to 2 s) until every caller's call has
 * written, then reads the buffer back: calls that run at once always see the last writer's values, calls run one
 * after another never do, so the stub fails the check exactly when the check makes calls overlap.
 */
class ConcurrencyCheckTest {

    private static float[][] valuesOf(int caller, int batch) {
        float[] v = new float[16 * batch];
        Arrays.fill(v, caller + 1);
        return new float[][]{v};
    }

    private static List<List<ConcurrencyCheck.Case>> callers(int n, int[] batches, Callee callee) {
        List<List<ConcurrencyCheck.Case>> all = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            int caller = k;
            List<ConcurrencyCheck.Case> own = new ArrayList<>();
            for (int b : batches) {
                own.add(new ConcurrencyCheck.Case("batch " + b, () -> callee.call(caller, b), valuesOf(caller, b)));
            }
            all.add(own);
        }
        return all;
    }

    @FunctionalInterface
    private interface Callee {
        float[][] call(int caller, int batch) throws Exception;
    }

    @Test
    void callersWithTheirOwnOutputsPassAndTheirCallsOverlap() throws Exception {
        Phaser meet = new Phaser(2);
        ConcurrencyCheck.Outcome o = ConcurrencyCheck.run(callers(2, new int[]{4, 1, 2, 3}, (caller, batch) -> {
            float[][] out = valuesOf(caller, batch);
            meet.awaitAdvanceInterruptibly(meet.arrive(), 2, TimeUnit.SECONDS); // both are under way
            return out;
        }), ConcurrencyCheck.ROUNDS);
        assertThat(o.passed()).as(o.found()).isTrue();
        assertThat(o.overlapped()).isEqualTo(ConcurrencyCheck.ROUNDS);
        assertThat(o.blind()).isEmpty();
    }

    @Test
    void aSharedOutputBufferIsCaught() throws Exception {
        float[] shared = new float[16 * 4];
        Phaser written = new Phaser(2);
        ConcurrencyCheck.Outcome o = ConcurrencyCheck.run(callers(2, new int[]{4, 1}, (caller, batch) -> {
            Arrays.fill(shared, 0, 16 * batch, caller + 1);
            try {
                written.awaitAdvanceInterruptibly(written.arrive(), 2, TimeUnit.SECONDS);
            } catch (TimeoutException alone) {
                // no other call under way: this one's output is still its own
            }
            return new float[][]{Arrays.copyOf(shared, 16 * batch)};
        }), ConcurrencyCheck.ROUNDS);
        assertThat(o.passed()).isFalse();
        assertThat(o.found()).matches("caller [01], batch [41], round \\d+: output 0 differs \\(max \\|diff\\| 1\\.0\\)");
    }

    @Test
    void aBufferSharedOnlyAtASmallerBatchIsCaughtThere() throws Exception {
        // dynamic batching's smaller calls: the full batch has outputs per caller, batch 2 one buffer for all
        float[] shared = new float[16 * 2];
        Phaser written = new Phaser(2);
        ConcurrencyCheck.Outcome o = ConcurrencyCheck.run(callers(2, new int[]{4, 2}, (caller, batch) -> {
            if (batch == 4) {
                return valuesOf(caller, batch);
            }
            Arrays.fill(shared, caller + 1);
            try {
                written.awaitAdvanceInterruptibly(written.arrive(), 2, TimeUnit.SECONDS);
            } catch (TimeoutException alone) {
                // no other call under way
            }
            return new float[][]{shared.clone()};
        }), ConcurrencyCheck.ROUNDS);
        assertThat(o.found()).contains("batch 2, round 2");
    }

    @Test
    void callersWithTheSameInputAreNamedAsBlindSpots() throws Exception {
        ConcurrencyCheck.Outcome o = ConcurrencyCheck.run(List.of(
                List.of(new ConcurrencyCheck.Case("batch 1", () -> valuesOf(0, 1), valuesOf(0, 1))),
                List.of(new ConcurrencyCheck.Case("batch 1", () -> valuesOf(0, 1), valuesOf(0, 1)))), 2);
        assertThat(o.passed()).isTrue();
        assertThat(o.blind()).isEqualTo("0 and 1");
    }

    @Test
    void aFailingCallFailsTheCheckWithItsError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConcurrencyCheck.run(callers(2, new int[]{1},
                (caller, batch) -> {
                    throw new IllegalStateException("engine gone");
                }), 3)).hasMessage("engine gone");
    }
}
