package dev.inferbench.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DJL never reaches the network: both DJL engines run the jar's own natives with DJL's offline switch on, an empty
 * DJL cache, and every JVM (launcher and forks, through JAVA_TOOL_OPTIONS) pointed at a proxy that refuses all
 * connections, so any download attempt would fail the run.
 */
class DjlOfflineIT {
    @TempDir
    Path work;

    @Test
    void djlEnginesRunOfflineFromAnEmptyCache() throws Exception {
        Path jar = Path.of(System.getProperty("inferbench.jar", "target/benchmarks.jar")).toAbsolutePath();
        Path cache = Files.createDirectory(work.resolve("djl-cache"));
        Path log = work.resolve("out.txt");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "-p", "model=mlp-tiny", "-p", "engine=djl-ort,djl-pytorch",
                "-f", "1", "-wi", "0", "-i", "1", "-r", "100ms")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("DJL_CACHE_DIR", cache.toString());
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dai.djl.offline=true -Dhttp.proxyHost=127.0.0.1"
                + " -Dhttp.proxyPort=9 -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=9");
        Process p = pb.start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("jar finished").isTrue();
        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("djl-ort").contains("djl-pytorch").doesNotContainIgnoringCase("download");
        // libtorch came out of the jar into the empty cache: the forks used the cache they were given
        try (Stream<Path> files = Files.walk(cache)) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertThat(names).contains("libtorch_cpu.so");
        }
    }
}
