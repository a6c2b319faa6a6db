package dev.inferbench.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failed forks run once more: those killed from outside, not those that failed or hung on their own. */
class KilledForkTest {
    @Test
    void aKillFromOutsideRunsAgainAFailureOfItsOwnDoesNot() {
        assertThat(RunLoop.killedFromOutside("forked VM failed with exit code 137")).isTrue();
        assertThat(RunLoop.killedFromOutside("forked VM failed with exit code 143 (at libonnxruntime.so)")).isTrue();
        assertThat(RunLoop.killedFromOutside("forked VM failed with exit code 134")).as("a native crash").isFalse();
        assertThat(RunLoop.killedFromOutside("forked VM failed with exit code 1")).isFalse();
        assertThat(RunLoop.killedFromOutside("still running after the fork timeout of 0m10s; killed (set"
                + " --fork-timeout to allow longer)")).as("the watchdog's kill").isFalse();
        assertThat(RunLoop.killedFromOutside("java.lang.IllegalStateException: no model")).isFalse();
    }
}
