package dev.inferbench.compare;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunReaderTest {

    @Test
    void sampleTimeFileGivesMeansAndPercentilesPerFork() throws BenchException {
        List<CellResults> cells = RunReader.read(Path.of("src/test/resources/jmh/sample-time.json"));
        CellResults c = cells.get(0);
        assertThat(c.mode()).isEqualTo("sample");
        assertThat(c.metrics()).containsKeys("time", "p50", "p99");
        MetricSeries time = c.metrics().get("time");
        assertThat(time.forks().length).isGreaterThanOrEqualTo(1);
        assertThat(c.metrics().get("p99").histograms()).hasSize(time.forks().length);
        assertThat(c.metrics().get("p99").isPercentile()).isTrue();
    }

    @Test
    void folderWithoutResultOrEmptyRunIsBadInput(@TempDir Path dir) throws IOException {
        assertThatThrownBy(() -> RunReader.read(dir)).isInstanceOf(BenchException.class).hasMessageContaining("has no jmh-result.json");
        Files.writeString(dir.resolve("jmh-result.json"), "[]");
        assertThatThrownBy(() -> RunReader.read(dir)).hasMessageContaining("holds no measured cell");
        assertThatThrownBy(() -> RunReader.read(dir.resolve("nope"))).hasMessageContaining("does not exist");
    }
}
