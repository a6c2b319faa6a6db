package dev.inferbench.results;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Links inside a received folder are refused before it is read; nothing is written through a link. */
class ReceivedFolderTest {
    @TempDir
    Path tmp;

    private Path run() throws IOException {
        Path run = Files.createDirectories(tmp.resolve("run/forks/cell"));
        Files.writeString(run.resolve("fork-1.record.json"), "{}");
        return tmp.resolve("run");
    }

    @Test
    void aPlainFolderPassesAndALinkAnywhereInsideIsRefused() throws IOException {
        Path run = run();
        assertThatCode(() -> ReceivedFolder.refuseLinks(run)).doesNotThrowAnyException();
        Files.createSymbolicLink(run.resolve("forks/cell/fork-2.record.json"), tmp.resolve("secret"));
        assertThatThrownBy(() -> ReceivedFolder.refuseLinks(run)).isInstanceOf(BenchException.class)
                .hasMessageContaining("fork-2.record.json is a symbolic link");
    }

    @Test
    void theFoldersOwnPathMayBeALink() throws IOException {
        Path run = run();
        Path alias = Files.createSymbolicLink(tmp.resolve("latest"), run);
        assertThatCode(() -> ReceivedFolder.refuseLinks(alias)).doesNotThrowAnyException();
    }

    @Test
    void aPipeIsRefused() throws Exception {
        Path run = run();
        assertThat(new ProcessBuilder("mkfifo", run.resolve("pipe").toString()).start().waitFor()).isZero();
        assertThatThrownBy(() -> ReceivedFolder.refuseLinks(run)).hasMessageContaining("neither a file nor a folder");
    }

    @Test
    void atomicWritesReplaceWholeAndRefuseLinks() throws IOException {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "kept");
        Path dir = Files.createDirectories(tmp.resolve("report"));
        Path file = dir.resolve("report.md");
        AtomicFile.write(file, out -> out.write("one".getBytes(StandardCharsets.UTF_8)));
        AtomicFile.write(file, "two".getBytes(StandardCharsets.UTF_8));
        assertThat(file).hasContent("two");
        Path link = Files.createSymbolicLink(dir.resolve("linked.md"), outside);
        assertThatThrownBy(() -> AtomicFile.write(link, "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FileSystemException.class);
        Path linkedDir = Files.createSymbolicLink(tmp.resolve("linked-dir"), dir);
        assertThatThrownBy(() -> AtomicFile.write(linkedDir.resolve("a.md"), "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FileSystemException.class);
        assertThat(outside).hasContent("kept");
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("report.md", "linked.md");
        }
    }
}
