package dev.inferbench.profile;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlameSettingsTest {
    private static final Path LIB = Path.of("/cache/libasyncProfiler.so");
    private static final Path FORK = Path.of("results/r/flames/cell/fork-2");

    @Test
    void flameIsCpuAndAllocIntoOneJfrPerFork() throws Exception {
        assertThat(FlameSettings.ofFlag("", false).asyncOptions(LIB, FORK))
                .isEqualTo("event=cpu;alloc;output=jfr;libPath=/cache/libasyncProfiler.so;dir=results/r/flames/cell/fork-2");
    }

    @Test
    void eventsAreOrderedPrimaryFirst() throws Exception {
        FlameSettings s = FlameSettings.ofFlag("lock,wall,alloc", false);
        assertThat(s.events()).containsExactly("wall", "lock", "alloc");
        assertThat(s.asyncOptions(LIB, FORK)).startsWith("event=wall;lock;alloc;output=jfr;");
        assertThat(s.samplesCpu()).isFalse();
        assertThat(FlameSettings.ofFlag("alloc", false).asyncOptions(LIB, FORK)).startsWith("event=alloc;output=jfr;");
    }

    @Test
    void twoSamplingEventsAreRefused() {
        assertThatThrownBy(() -> FlameSettings.ofFlag("cpu,wall", false))
                .isInstanceOf(BenchException.class).hasMessageContaining("cpu and wall at once");
    }

    @Test
    void malformedEventIsOneLine() {
        assertThatThrownBy(() -> FlameSettings.ofFlag("cpu;rm -rf", false))
                .isInstanceOf(BenchException.class).hasMessageStartingWith("unknown flame event 'cpu;rm -rf'");
    }

    @Test
    void usersOwnOptionsAreKeptAndCompleted() {
        assertThat(FlameSettings.ofUser("event=wall;output=flamegraph", false).asyncOptions(LIB, FORK))
                .isEqualTo("event=wall;output=flamegraph;libPath=/cache/libasyncProfiler.so;dir=results/r/flames/cell/fork-2");
        assertThat(FlameSettings.ofUser("libPath=/mine.so;dir=/out", false).asyncOptions(LIB, FORK))
                .isEqualTo("libPath=/mine.so;dir=/out");
        assertThat(FlameSettings.ofUser("", false).asyncOptions(LIB, FORK))
                .isEqualTo("libPath=/cache/libasyncProfiler.so;dir=results/r/flames/cell/fork-2");
        assertThat(FlameSettings.ofUser("event=wall", false).samplesCpu()).isFalse();
        assertThat(FlameSettings.ofUser("output=jfr", false).samplesCpu()).isTrue();
    }
}
