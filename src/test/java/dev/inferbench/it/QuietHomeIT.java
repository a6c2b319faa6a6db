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
 * The jar writes nothing outside its run folder and models folder, whatever the user's environment: ONNX Runtime's
 * telemetry (a device id and an event cache under ~/.cache/Microsoft) is off in the launcher and every fork even
 * when ORT_DISABLE_TELEMETRY is not set, and the process that turns it off ends with the launcher.
 */
class QuietHomeIT {
    @TempDir
    static Path work;

    private static ProcessBuilder withoutTelemetrySwitch(Path cwd, Path home, String args) {
        ProcessBuilder b = Jar.command(cwd, args);
        b.environment().remove("ORT_DISABLE_TELEMETRY");
        b.environment().remove("XDG_CACHE_HOME");
        b.environment().put("HOME", home.toString());
        return b;
    }

    private static List<Path> under(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.equals(dir)).toList();
        }
    }

    @Test
    void aShortMatrixLeavesTheHomeFolderEmpty() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("run"));
        Path home = Files.createDirectory(work.resolve("home"));
        Jar.Run r = Jar.run(withoutTelemetrySwitch(cwd, home,
                "-p model=mlp-tiny -p batchSize=1 -f 1 -wi 0 -i 1 -r 100ms --run-dir out"), work);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.err()).doesNotContain("could not start again");
        assertThat(under(home)).as("written under HOME").isEmpty();
        assertThat(cwd.resolve("out/jmh-result.json")).exists();
    }

    @Test
    void killingTheLauncherEndsTheRunItStarted() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("kill"));
        Path home = Files.createDirectory(work.resolve("home-kill"));
        Process p = withoutTelemetrySwitch(cwd, home, "-p model=mlp-tiny -p batchSize=1 -f 3 -wi 0 -i 3 -r 1s"
                + " --run-dir out").redirectErrorStream(true).redirectOutput(work.resolve("kill.txt").toFile()).start();
        Jar.awaitWhileAlive(p, () -> Files.exists(cwd.resolve("out/plan.json")));
        List<ProcessHandle> started = p.toHandle().descendants().toList();
        assertThat(started).as("the relaunched run").isNotEmpty();
        p.destroyForcibly();
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        for (ProcessHandle child : started) {
            child.onExit().get(1, TimeUnit.MINUTES);
            assertThat(child.isAlive()).isFalse();
        }
    }
}
