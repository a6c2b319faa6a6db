package dev.inferbench.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DJL never reaches the network: both DJL engines run the jar's own natives with DJL's offline switch on, an empty
 * DJL cache, and every JVM (launcher and forks, through JAVA_TOOL_OPTIONS) pointed at a proxy that refuses all
 * connections, so any download attempt would fail the run. The cuda cells of the same run are skipped with their
 * reason on this GPU-less machine, and the run still succeeds. The launcher itself loads neither engine.
 */
class DjlOfflineIT {
    @TempDir
    Path work;

    @Test
    void djlEnginesRunOfflineFromAnEmptyCacheAndCudaCellsAreSkipped() throws Exception {
        Path cache = Files.createDirectory(work.resolve("djl-cache"));
        ProcessBuilder pb = Jar.command(work, "-p model=mlp-tiny -p engine=djl-ort,djl-pytorch -p device=cpu,cuda"
                + " -f 1 -wi 0 -i 1 -r 100ms" + Jar.NO_SPARES);
        pb.environment().put("DJL_CACHE_DIR", cache.toString());
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Dai.djl.offline=true -Dhttp.proxyHost=127.0.0.1"
                + " -Dhttp.proxyPort=9 -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=9");
        // once the djl-ort cell's fork has landed, the launcher that prepared both DJL cells holds no engine library
        Jar.Run r = Jar.run(pb, work, p -> {
            Jar.awaitWhileAlive(p, () -> Jar.landedForks(work.resolve("results")) > 0);
            assertThat(Jar.engineLibraries(p)).as("engine libraries the launcher mapped").isEmpty();
        });
        String all = r.out() + r.err();
        assertThat(r.code()).as(all).isZero();
        assertThat(r.out()).contains("djl-ort").contains("djl-pytorch")
                .contains("device 'cuda': no NVIDIA GPU found");
        assertThat(all).doesNotContainIgnoringCase("download");
        // libtorch came out of the jar into the empty cache: the forks used the cache they were given
        try (Stream<Path> files = Files.walk(cache)) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertThat(names).contains("libtorch_cpu.so");
        }
    }
}
