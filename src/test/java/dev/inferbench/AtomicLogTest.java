package dev.inferbench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A log that grows as it is written: appended line by line, or started empty, and never written through a link. */
class AtomicLogTest {
    @TempDir
    Path dir;

    @Test
    void linesAreAppendedAndAFreshLogStartsEmpty() throws IOException {
        Path log = dir.resolve("a.log");
        AtomicFile.appendLine(log, "one");
        AtomicFile.appendLine(log, "two");
        assertThat(Files.readString(log)).isEqualTo("one\ntwo\n");
        try (OutputStream o = AtomicFile.log(log, false)) {
            o.write("three\n".getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.readString(log)).isEqualTo("three\n");
    }

    @Test
    void aLinkIsRefusedAndItsTargetUntouched() throws IOException {
        Path target = Files.writeString(dir.resolve("target.txt"), "kept");
        Path link = Files.createSymbolicLink(dir.resolve("machine.tsv"), target);
        assertThatThrownBy(() -> AtomicFile.appendLine(link, "x")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> AtomicFile.refuseLink(link)).isInstanceOf(IOException.class);
        assertThat(Files.readString(target)).isEqualTo("kept");
    }
}
