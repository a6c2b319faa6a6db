package dev.inferbench.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IoProfilerTest {
    @Test
    void readsTheStorageLayersBytesNotTheCharactersThroughPipes() {
        String io = "rchar: 6976\nwchar: 123456\nsyscr: 10\nsyscw: 3\nread_bytes: 4096\nwrite_bytes: 8192\n"
                + "cancelled_write_bytes: 0\n";
        assertThat(IoProfiler.parse(io)).containsExactly(4096, 8192);
    }

    @Test
    void aFileWithoutTheFieldsGivesNothing() {
        assertThat(IoProfiler.parse("rchar: 1\nwchar: 2\n")).isNull();
    }

    @Test
    void thisProcessHasAnIoFileOnLinux() {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.exists(java.nio.file.Path.of("/proc/self/io")));
        assertThat(IoProfiler.read(java.nio.file.Path.of("/proc/self/io"))).hasSize(2);
    }
}
