package dev.inferbench.profile;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NativeLibraryCacheTest {
    private static final byte[] LIBRARY = "\u007fELF pretend library".getBytes();

    @TempDir
    Path tmp;
    private NativeLibraryCache cache;

    @BeforeEach
    void jarWithALibrary() throws Exception {
        Path jar = Files.createDirectories(tmp.resolve("jar/linux-x64"));
        Files.write(jar.resolve("libx.so"), LIBRARY);
        ClassLoader loader = new URLClassLoader(new URL[]{tmp.resolve("jar").toUri().toURL()}, null);
        cache = new NativeLibraryCache(tmp.resolve("cache"), loader);
    }

    @Test
    void extractsOnceAndReusesTheCopy() throws Exception {
        Path first = cache.extract("linux-x64/libx.so", "x/1.0/linux-x64/libx.so");
        assertThat(first).hasBinaryContent(LIBRARY).startsWith(tmp.resolve("cache"));
        FileTime old = FileTime.fromMillis(1_000_000L);
        Files.setLastModifiedTime(first, old);

        Path second = cache.extract("linux-x64/libx.so", "x/1.0/linux-x64/libx.so");

        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second)).as("not rewritten").isEqualTo(old);
        try (var files = Files.list(first.getParent())) {
            assertThat(files).as("no temp files left").containsExactly(first);
        }
    }

    @Test
    void repairsACorruptCopy() throws Exception {
        Path kept = cache.extract("linux-x64/libx.so", "x/1.0/linux-x64/libx.so");
        Files.write(kept, new byte[]{1, 2, 3});

        assertThat(cache.extract("linux-x64/libx.so", "x/1.0/linux-x64/libx.so")).hasBinaryContent(LIBRARY);
    }

    @Test
    void byDigestNamesTheFolderAfterTheBytes() throws Exception {
        Path kept = cache.extractByDigest("linux-x64/libx.so", "x/linux-x64");
        assertThat(kept.getParent().getFileName().toString()).isEqualTo(NativeLibraryCache.sha256(LIBRARY).substring(0, 12));
        assertThat(kept).hasBinaryContent(LIBRARY).hasFileName("libx.so");
    }

    @Test
    void missingLibraryIsOneLine() {
        assertThatThrownBy(() -> cache.extract("macos/libx.so", "x/1.0/macos/libx.so"))
                .isInstanceOf(BenchException.class).hasMessageContaining("macos/libx.so is not in the jar");
    }

    @Test
    void unwritableCacheIsOneLine() throws Exception {
        Files.writeString(tmp.resolve("cache"), "a file where the folder should be");
        assertThatThrownBy(() -> cache.extract("linux-x64/libx.so", "x/1.0/linux-x64/libx.so"))
                .isInstanceOf(BenchException.class).hasMessageContaining("expected a writable cache folder");
    }

    @Test
    void bundledAsyncProfilerIsFoundForThisPlatform() throws Exception {
        NativeLibraryCache real = new NativeLibraryCache(tmp.resolve("real"), getClass().getClassLoader());
        Path lib = AsyncProfilerLibrary.path(real, "Linux", "amd64");
        assertThat(lib.toString()).matches(".*/async-profiler/4\\.\\d+/linux-x64/libasyncProfiler\\.so");
        assertThat(Files.size(lib)).isGreaterThan(100_000);
        assertThatThrownBy(() -> AsyncProfilerLibrary.path(real, "Windows 11", "amd64"))
                .isInstanceOf(BenchException.class).hasMessageContaining("bundles no library for Windows 11/amd64");
    }
}
