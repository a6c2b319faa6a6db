package dev.inferbench.cli;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlagValueTest {
    @Test
    void theArgumentAfterTheFlag() throws BenchException {
        assertThat(FlagValue.of(List.of("-o", "out", "--format", "md"), 1, "-o", "a folder")).isEqualTo("out");
    }

    @Test
    void aMissingValueOrTheNextFlagIsRefusedSayingWhatWasExpected() {
        assertThatThrownBy(() -> FlagValue.of(List.of("-o"), 1, "-o", "a folder"))
                .isInstanceOf(BenchException.class).hasMessage("-o needs a value; expected a folder");
        assertThatThrownBy(() -> FlagValue.of(List.of("--budget", "--ab"), 1, "--budget", "a duration, e.g. 20m"))
                .hasMessage("--budget needs a value; expected a duration, e.g. 20m");
    }
}
