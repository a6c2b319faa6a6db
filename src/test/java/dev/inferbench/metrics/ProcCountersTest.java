package dev.inferbench.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ProcCountersTest {

    @Test
    void readsLinuxCounters() {
        assertThat(ProcCounters.machineBusy("cpu  100 2 30 5000 7 1 4 6 0 0\ncpu0 50 1 15 2500 3 0 2 3 0 0\n"))
                .as("user nice system irq softirq steal").isEqualTo(100 + 2 + 30 + 1 + 4 + 6);
        // a command name with spaces and parentheses; utime 250, stime 50
        String self = "1234 (java (main) x) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 100 0 0";
        assertThat(ProcCounters.processTicks(self)).isEqualTo(300);
        assertThat(ProcCounters.involuntary("Name:\tjava\nvoluntary_ctxt_switches:\t10\nnonvoluntary_ctxt_switches:\t42\n"))
                .isEqualTo(42);
        assertThat(ProcCounters.machineBusy("")).isEqualTo(-1);
    }

    @Test
    void othersAreTheMachinesBusyTimeLessThisProcesss() {
        ProcCounters before = new ProcCounters(1_000, 200, 5, 0);
        // 2 s later: the machine was busy 300 ticks (3 s of CPU), this process 150 of them
        ProcCounters after = new ProcCounters(1_300, 350, 25, 2_000_000_000L);
        assertThat(after.othersCores(before)).isCloseTo(0.75, within(1e-12));
        assertThat(after.processCores(before)).isCloseTo(0.75, within(1e-12));
        assertThat(after.involuntaryPerSecond(before)).isCloseTo(10, within(1e-12));
        assertThat(new ProcCounters(-1, 350, 25, 1).othersCores(before)).isNaN();
    }

    @Test
    void theCanaryTakesTimeAndAResult() {
        assertThat(MachineProfiler.kernel(1000)).isNotEqualTo(MachineProfiler.kernel(1001));
        assertThat(MachineProfiler.canaryMillis()).isPositive();
    }
}
