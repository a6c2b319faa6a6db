package dev.inferbench.cli;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunFlagsTest {
    @Test
    void ourFlagsAreTakenOutAndTheRestGoesToJmh() throws BenchException {
        RunFlags f = RunFlags.extract(List.of("-p", "model=x", "--shard", "2/4", "--max-forks", "3", "--fork-timeout",
                "90s", "--precision", "2%", "--budget", "1h", "--run-dir", "out", "-f", "5"));
        assertThat(f.jmhArgs()).containsExactly("-p", "model=x", "-f", "5");
        assertThat(f.options().shard().index()).isEqualTo(2);
        assertThat(f.options().loop().maxForks().getAsInt()).isEqualTo(3);
        assertThat(f.options().loop().forkTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(f.options().loop().precision().getAsDouble()).isEqualTo(0.02);
        assertThat(f.options().loop().budget()).isEqualTo(Duration.ofHours(1));
        assertThat(f.options().runDir()).isEqualTo(Path.of("out"));
    }

    @Test
    void theDisturbedForksFlags() throws BenchException {
        RunFlags f = RunFlags.extract(List.of("--rerun-disturbed", "2", "--keep-disturbed", "-f", "4"));
        assertThat(f.jmhArgs()).containsExactly("-f", "4");
        assertThat(f.options().loop().spares().of(4)).isEqualTo(2);
        assertThat(f.options().keepDisturbed()).isTrue();
        assertThat(RunFlags.extract(List.of()).options().loop().spares().of(4)).isEqualTo(1);
        assertThat(RunFlags.extract(List.of("--rerun-disturbed", "0")).options().loop().spares().of(4)).isZero();
        assertThatThrownBy(() -> RunFlags.extract(List.of("--resume", "r", "--keep-disturbed")))
                .hasMessageContaining("a resumed run keeps its plan's choice");
    }

    @Test
    void badValuesAreOneClearLine() {
        assertThatThrownBy(() -> RunFlags.extract(List.of("--max-forks", "0"))).hasMessage("--max-forks '0' is not a whole number >= 1;"
                + " expected forks per cell, e.g. --max-forks 5");
        assertThatThrownBy(() -> RunFlags.extract(List.of("--precision", "150%"))).hasMessageContaining("expected e.g. 2%");
        assertThatThrownBy(() -> RunFlags.extract(List.of("--budget", "soon"))).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> RunFlags.extract(List.of("--resume"))).hasMessageContaining("--resume needs a value");
        assertThatThrownBy(() -> RunFlags.extract(List.of("--resume", "r", "--shard", "1/2")))
                .hasMessageContaining("expected no --run-dir, --shard or --cells with it");
    }
}
