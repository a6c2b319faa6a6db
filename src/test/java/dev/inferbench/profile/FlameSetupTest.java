package dev.inferbench.profile;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Asks the real profiler (in a JVM of its own) about events, as a run does before its first fork. */
class FlameSetupTest {
    @TempDir
    Path run;

    @Test
    void unknownEventStopsTheRunInOneLine() {
        assertThatThrownBy(() -> FlameSetup.hook(FlameSettings.ofFlag("nosuchevent", false), run, System.out))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("unknown flame event 'nosuchevent'");
    }

    @Test
    void optionalGoesOnUnprofiledAndSaysWhy() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(FlameSetup.hook(FlameSettings.ofFlag("nosuchevent", true), run,
                new PrintStream(out, true, StandardCharsets.UTF_8))).isEmpty();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("inferbench: flame graphs off, the run goes on unprofiled: unknown flame event 'nosuchevent'");
    }

    @Test
    void availableEventsNameTheCpuEngineInTheRunFolder() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(FlameSetup.hook(FlameSettings.ofFlag("", false), run,
                new PrintStream(out, true, StandardCharsets.UTF_8))).isPresent();
        assertThat(out.toString(StandardCharsets.UTF_8)).matches("(?s)inferbench: flame graphs: cpu samples come from (perf_events|ctimer|itimer).*");
        assertThat(run.resolve("flames/profiler.txt")).content().contains("cpu samples come from").contains("libPath=");
    }
}
