package dev.inferbench.metrics;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a benchmark hands its profilers is reported once: a slot is empty once taken, a tally anew each iteration. */
class HandoffTest {

    @Test
    void aTakenValueIsNotReportedAgain() {
        Handoff.Slot<String> slot = new Handoff.Slot<>();
        assertThat(slot.take()).isNull();
        slot.set("step 1");
        slot.set("step 2");
        assertThat(slot.get()).isEqualTo("step 2");
        assertThat(slot.take()).isEqualTo("step 2");
        assertThat(slot.take()).as("a warm-up's value is not the next iteration's").isNull();
    }

    @Test
    void aTallySumsEveryThreadsAdditionsUntilReset() throws InterruptedException {
        Handoff.Tally tally = new Handoff.Tally();
        tally.add(5);
        tally.reset();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10_000; i++) {
                    tally.add(3);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(tally.sum()).isEqualTo(4 * 10_000 * 3L);
    }
}
