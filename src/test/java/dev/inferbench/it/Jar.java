package dev.inferbench.it;

import dev.inferbench.results.RunLayout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The built target/benchmarks.jar, run as a user runs it: in a given folder, a fresh JVM per call. */
final class Jar {
    /** What a finished run printed. */
    record Run(int code, String out, String err) {
    }

    /**
     * No spare forks: the end-to-end tests run two at a time on a small machine, so each disturbs the other's forks,
     * and a spare per disturbed fork would count forks inexactly and cost a fork's time; the spare rule itself is
     * {@code RunLoopTest}'s and {@code SparesTest}'s.
     */
    static final String NO_SPARES = " --rerun-disturbed 0";

    private Jar() {
    }

    static Path path() {
        Path jar = Path.of(System.getProperty("inferbench.jar", "target/benchmarks.jar")).toAbsolutePath();
        assertThat(jar).exists();
        return jar;
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** {@code java [jvmArgs] -jar benchmarks.jar args} in {@code cwd}, not started. */
    static ProcessBuilder command(Path cwd, List<String> jvmArgs, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-jar", path().toString()));
        cmd.addAll(args);
        ProcessBuilder b = new ProcessBuilder(cmd).directory(cwd.toFile());
        // as the build sets it for the test JVM: without it the launcher starts itself a second time (SilentLaunch);
        // the one test of that path takes it away again
        b.environment().putIfAbsent("ORT_DISABLE_TELEMETRY", "1");
        return b;
    }

    static ProcessBuilder command(Path cwd, String args) {
        return command(cwd, List.of(), List.of(args.trim().split(" +")));
    }

    /** A condition a test waits for, that may read files a run is writing. */
    @FunctionalInterface
    interface Condition {
        boolean holds() throws IOException;
    }

    /**
     * Waits until {@code done} holds, {@code p} ends or two minutes pass, looking every 10 ms: a test that spun
     * instead would hold one of a 2-core machine's cores away from the run it waits for.
     */
    static void awaitWhileAlive(Process p, Condition done) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!done.holds() && System.nanoTime() < deadline && !p.waitFor(10, TimeUnit.MILLISECONDS)) {
            // the process is still running and the condition does not hold yet
        }
    }

    /**
     * The engine libraries (ONNX Runtime's, libtorch's, DJL's) a running process has mapped: none in the launcher,
     * whose native engine code runs in forks only, so that a crash there costs one fork.
     */
    static List<String> engineLibraries(Process p) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + p.pid() + "/maps")).stream()
                .filter(l -> l.matches(".*/lib(onnxruntime|torch|djl)[^/]*$")).toList();
    }

    /**
     * The forks whose result has landed anywhere under {@code dir} (0 when it is not there yet); a file the run renames
     * while this looks is looked for again.
     */
    static long landedForks(Path dir) throws IOException {
        for (int attempt = 0; ; attempt++) {
            if (!Files.isDirectory(dir)) {
                return 0;
            }
            try (Stream<Path> s = Files.walk(dir)) {
                return s.filter(f -> f.getFileName().toString().endsWith(RunLayout.FORK_RESULT_SUFFIX)).count();
            } catch (UncheckedIOException | NoSuchFileException e) {
                if (attempt == 10) {
                    throw e;
                }
            }
        }
    }

    /** Runs to the end (at most 5 minutes) and returns the exit code and both outputs. */
    static Run run(Path cwd, String args) throws IOException, InterruptedException {
        return run(command(cwd, args), cwd);
    }

    static Run run(ProcessBuilder command, Path scratch) throws IOException, InterruptedException {
        return run(command, scratch, p -> { });
    }

    /** What a test looks at in a process while it runs. */
    @FunctionalInterface
    interface Watch {
        void running(Process p) throws IOException, InterruptedException;
    }

    /** {@link #run(ProcessBuilder, Path)}, with {@code watch} called once the process has started. */
    static Run run(ProcessBuilder command, Path scratch, Watch watch) throws IOException, InterruptedException {
        Path stdout = Files.createTempFile(scratch, "out", ".txt");
        Path stderr = Files.createTempFile(scratch, "err", ".txt");
        Process p = command.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            watch.running(p);
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the jar did not finish in 5 minutes: " + command.command());
        }
        try {
            return new Run(p.exitValue(), Files.readString(stdout), Files.readString(stderr));
        } finally {
            Files.delete(stdout);
            Files.delete(stderr);
        }
    }
}
