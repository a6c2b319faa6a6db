package dev.inferbench.profile;

import dev.inferbench.run.Cell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FlameHookTest {
    @TempDir
    Path run;

    private final Cell cell = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample",
            Map.of("model", "resnet50", "engine", "ort", "batchSize", "1"));

    @Test
    void eachForkGetsItsOwnFolderAndProfilerOption() throws Exception {
        FlameHook hook = new FlameHook(FlameSettings.ofFlag("", false), Path.of("/lib.so"), run,
                List.of("-Dx=kept"));
        for (int fork = 1; fork <= 2; fork++) {
            ChainedOptionsBuilder b = new OptionsBuilder();
            hook.beforeFork(cell, fork, run.resolve("forks/x"), b);
            var options = b.build();
            Path dir = run.resolve("flames").resolve(cell.id()).resolve("fork-" + fork);
            assertThat(dir).isDirectory();
            assertThat(options.getProfilers()).singleElement().satisfies(p -> {
                assertThat(p.getKlass()).isEqualTo("async");
                assertThat(p.getOpts()).endsWith("dir=" + dir);
            });
            assertThat(options.getJvmArgsAppend().get()).containsExactly("-Dx=kept");
        }
    }

    @Test
    void mergedGraphSumsEveryFork() throws Exception {
        Path cellDir = run.resolve("flames").resolve(cell.id());
        Files.createDirectories(cellDir.resolve("fork-1"));
        Files.createDirectories(cellDir.resolve("fork-2"));
        Files.writeString(cellDir.resolve("fork-1/cpu.collapsed"), "main;infer;Conv 3\nmain;gc 1\n");
        Files.writeString(cellDir.resolve("fork-2/cpu.collapsed"), "main;infer;Conv 4\n");
        Files.writeString(cellDir.resolve("fork-2/alloc.collapsed"), "main;infer;byte[] 10\n");

        FlameHook.merge(cellDir, cell.label());

        Path merged = cellDir.resolve("merged");
        assertThat(Files.readAllLines(merged.resolve("cpu.collapsed"))).containsExactlyInAnyOrder("main;infer;Conv 7", "main;gc 1");
        assertThat(Files.readAllLines(merged.resolve("alloc.collapsed"))).containsExactly("main;infer;byte[] 10");
        assertThat(merged.resolve("cpu-forward.html")).content().contains("Conv").contains("<html");
        assertThat(merged.resolve("cpu-reverse.html")).exists();
        assertThat(merged.resolve("alloc-forward.html")).exists();
    }
}
