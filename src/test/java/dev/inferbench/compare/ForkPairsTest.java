package dev.inferbench.compare;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which forks of two runs count as pairs, read off their wall times. */
class ForkPairsTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    /** Forks of {@code seconds} each, the k-th starting at {@code offset + k * every} seconds. */
    private static List<ForkStamp> forks(int n, double offset, double every, double seconds) {
        List<ForkStamp> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            Instant start = T0.plusMillis(Math.round((offset + k * every) * 1000));
            out.add(new ForkStamp(k, start, start.plusMillis(Math.round(seconds * 1000))));
        }
        return out;
    }

    @Test
    void interleavedForksArePairedByNumber() {
        // A, B, A, B ...: each fork 5 s, B right after its A
        ForkPairs p = ForkPairs.of(forks(6, 0, 10.2, 5), forks(6, 5.1, 10.2, 5));
        assertThat(p.count()).isEqualTo(6);
        assertThat(p.usable()).isTrue();
        assertThat(p.leftOut()).isZero();
        assertThat(p.baseline()).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void aDuetsOverlappingForksArePaired() {
        ForkPairs p = ForkPairs.of(forks(4, 0, 6, 5), forks(4, 0.05, 6, 5));
        assertThat(p.count()).isEqualTo(4);
    }

    @Test
    void runsMadeOneAfterTheOtherAreNotPaired() {
        ForkPairs p = ForkPairs.of(forks(5, 0, 5.1, 5), forks(5, 30, 5.1, 5));
        assertThat(p.count()).isZero();
        assertThat(p.usable()).isFalse();
        assertThat(p.leftOut()).isEqualTo(10);
    }

    @Test
    void aForkThatFailedOnOneSideLeavesItsPartnerOut() {
        List<ForkStamp> base = forks(5, 0, 10.2, 5);
        List<ForkStamp> head = new ArrayList<>(forks(5, 5.1, 10.2, 5));
        head.remove(2); // fork-2 of the candidate never landed
        ForkPairs p = ForkPairs.of(base, head);
        assertThat(p.count()).isEqualTo(4);
        assertThat(p.leftOut()).isEqualTo(1);
        assertThat(p.baseline()).containsExactly(0, 1, 3, 4);
        assertThat(p.candidate()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void aPauseBetweenTheTwoForksOfAPairBreaksThePair() {
        // fork 3 of the candidate was run an hour later (a resumed comparison): no other fork between, but a gap
        List<ForkStamp> base = forks(4, 0, 10.2, 5);
        List<ForkStamp> head = new ArrayList<>(forks(3, 5.1, 10.2, 5));
        head.add(new ForkStamp(3, T0.plusSeconds(3600), T0.plusSeconds(3605)));
        ForkPairs p = ForkPairs.of(base, head);
        assertThat(p.count()).isEqualTo(3);
        // the pair the gap rule broke is counted as such, not as two forks without a partner
        assertThat(p.apart()).isEqualTo(1);
        assertThat(p.leftOut()).isZero();
    }

    @Test
    void noStampsNoPairs() {
        assertThat(ForkPairs.of(List.of(), forks(3, 0, 6, 5))).isEqualTo(ForkPairs.NONE);
    }

    @Test
    void aPairWithADisturbedForkIsLeftOutUnlessKept() {
        List<ForkStamp> base = forks(5, 0, 10.2, 5);
        List<ForkStamp> head = new ArrayList<>(forks(5, 5.1, 10.2, 5));
        ForkStamp slow = head.get(1);
        head.set(1, new ForkStamp(slow.fork(), slow.start(), slow.end(), true));
        ForkPairs out = ForkPairs.of(base, head, false);
        assertThat(out.count()).isEqualTo(4);
        assertThat(out.disturbed()).isEqualTo(1);
        assertThat(out.baseline()).containsExactly(0, 2, 3, 4);
        assertThat(out.leftOut()).isZero();
        ForkPairs kept = ForkPairs.of(base, head, true);
        assertThat(kept.count()).isEqualTo(5);
        assertThat(kept.disturbed()).isZero();
    }
}
