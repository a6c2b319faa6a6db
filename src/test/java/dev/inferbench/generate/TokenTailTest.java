package dev.inferbench.generate;

import dev.inferbench.engine.DecodeState;
import dev.inferbench.tail.SlowCalls;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --tail} on a generation cell: each cached step is one call of the caller's record, the prefill none. */
class TokenTailTest {
    /** A decoder state that answers token 1 at once and counts its steps. */
    private static final class Counting implements DecodeState {
        int steps;

        @Override
        public void step(long[] tokens, int n, long[] next) {
            steps++;
            java.util.Arrays.fill(next, 1);
        }

        @Override
        public void pad(int[] leading) {
        }

        @Override
        public int cached() {
            return 0;
        }

        @Override
        public long cacheBytes() {
            return 0;
        }

        @Override
        public void reset() {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void eachCachedStepIsACallAndThePrefillIsNot() throws Exception {
        Counting state = new Counting();
        Generation g = new Generation(state, 1, Prompts.of(List.of(new long[] {3, 4, 5})), 8, null);
        SlowCalls record = SlowCalls.unlisted(); // its first window keeps every call: no threshold yet
        g.recordTokens(record);
        g.request();
        g.request();
        assertThat(state.steps).isEqualTo(16); // a prefill and 7 cached steps a request
        assertThat(record.kept()).isEqualTo(14);
    }

    @Test
    void withoutTheRecordNothingIsKept() throws Exception {
        Generation g = new Generation(new Counting(), 1, Prompts.of(List.of(new long[] {3})), 4, null);
        SlowCalls record = SlowCalls.unlisted();
        g.request(); // not given the record: the default record is off
        assertThat(record.kept()).isZero();
        assertThat(SlowCalls.off().kept()).isZero();
    }
}
