package dev.inferbench.it;

import dev.inferbench.results.RunLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A disk that fills up in the middle of a run: a 300 kB tmpfs holds the run folder. Runs only where the test may
 * mount one (root with CAP_SYS_ADMIN, as on CI here); skipped elsewhere.
 */
class DiskFullIT {
    @TempDir
    Path work;
    private Path mount;

    private static int exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            exec("umount", mount.toString());
        }
    }

    @Test
    void fullDiskStopsTheRunInOneLineAndKeepsWhatWasWritten() throws Exception {
        Path dir = Files.createDirectory(work.resolve("tiny"));
        assumeTrue(exec("mount", "-t", "tmpfs", "-o", "size=300k", "tmpfs", dir.toString()) == 0,
                "cannot mount a tmpfs here");
        mount = dir;
        Path cwd = Files.createDirectory(work.resolve("cwd"));
        Path err = work.resolve("err.txt");
        Process p = Jar.command(cwd, "-p model=mlp-tiny -p batchSize=1,2 -f 4 -wi 0 -i 1 -r 100ms" + Jar.NO_SPARES + " --run-dir "
                + dir.resolve("run"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as("a full disk is exit 5: not bad input, no failed cell").isEqualTo(5);
        List<String> lines = Files.readAllLines(err);
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).startsWith("inferbench: cannot write the result of").contains("No space left on device")
                .contains("--resume " + dir.resolve("run"));
        long kept;
        try (Stream<Path> s = Files.walk(dir.resolve("run/forks"))) {
            kept = s.filter(f -> f.toString().endsWith(RunLayout.FORK_RESULT_SUFFIX)).count();
        }
        assertThat(kept).isBetween(1L, 7L);
        assertThat(exec("mount", "-o", "remount,size=20m", dir.toString())).isZero();
        Process resumed = Jar.command(cwd, "--resume " + dir.resolve("run") + Jar.NO_SPARES)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(resumed.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(resumed.exitValue()).isZero();
        try (Stream<Path> s = Files.walk(dir.resolve("run/forks"))) {
            assertThat(s.filter(f -> f.toString().endsWith(RunLayout.FORK_RESULT_SUFFIX)).count()).isEqualTo(8);
        }
    }
}
