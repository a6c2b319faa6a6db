package dev.inferbench.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Keeps ONNX Runtime from writing telemetry. Since 1.2x its official Linux builds create a device id and an event
 * cache under {@code ~/.cache/Microsoft/DeveloperTools/.onnxruntime/} as soon as the first {@code OrtEnvironment}
 * exists, in the launcher and in every fork; the only switch that stops all of it is the environment variable
 * {@code ORT_DISABLE_TELEMETRY=1}, read once when the native library initialises. A JVM cannot change its own
 * environment, so a launcher started without it starts itself again, with the same command line and the variable
 * set, and exits with that process's code; JMH's forks inherit the environment. The relaunched process ends when
 * its parent does, so that stopping the launcher a script started stops the run too. The relaunched JVM writes a
 * crash log of its own (hs_err) under {@link #CRASHES} in the temporary folder rather than the working directory,
 * unless its command line names an {@code -XX:ErrorFile} already.
 */
final class SilentLaunch {
    static final String VARIABLE = "ORT_DISABLE_TELEMETRY";
    /** Set on the relaunched process only: it watches its parent and never relaunches again. */
    static final String RELAUNCHED = "INFERBENCH_RELAUNCHED";
    /** The folder, under {@code java.io.tmpdir}, that a relaunched launcher's crash log goes to. */
    static final String CRASHES = "inferbench-crashes";

    private SilentLaunch() {
    }

    /** Whether this process already runs with ONNX Runtime's telemetry off. */
    static boolean silent() {
        return "1".equals(System.getenv(VARIABLE));
    }

    /**
     * Runs this process's own command line again with telemetry off and waits for it: its exit code, or empty when
     * no relaunch is needed or possible (the command line cannot be read; then the run goes on, and the
     * caller says so).
     */
    static OptionalInt relaunch() throws InterruptedException {
        if (silent() || System.getenv(RELAUNCHED) != null) {
            return OptionalInt.empty();
        }
        Optional<List<String>> command = commandLine();
        if (command.isEmpty()) {
            return OptionalInt.empty();
        }
        ProcessBuilder builder = new ProcessBuilder(command.get()).inheritIO();
        builder.environment().put(VARIABLE, "1");
        builder.environment().put(RELAUNCHED, Long.toString(ProcessHandle.current().pid()));
        Process child;
        try {
            Files.createDirectories(crashes());
            child = builder.start();
        } catch (IOException e) {
            return OptionalInt.empty();
        }
        Thread stopChild = new Thread(() -> stop(child), "inferbench-stop-relaunched");
        Runtime.getRuntime().addShutdownHook(stopChild);
        int code = child.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(stopChild);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already and waits for the same process
        }
        if (code == 134) {
            System.err.println("inferbench: the launcher's JVM crashed (exit 134); its crash log is in " + crashes());
        }
        return OptionalInt.of(code);
    }

    /** In the relaunched process: when the parent ends (even by kill -9), this process ends as a stopped run does. */
    static void followParent() {
        if (System.getenv(RELAUNCHED) == null) {
            return;
        }
        ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(143)));
    }

    /** A stop of the launcher (Ctrl-C, kill) stops the run it started and waits for it to keep what landed. */
    private static void stop(Process child) {
        child.destroy();
        try {
            child.waitFor();
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static Path crashes() {
        return Path.of(System.getProperty("java.io.tmpdir"), CRASHES);
    }

    /** The JVM's own argv (from /proc on Linux): the same java, options, jar and arguments. */
    private static Optional<List<String>> commandLine() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        if (info.command().isEmpty() || info.arguments().isEmpty()) {
            return Optional.empty();
        }
        List<String> all = new ArrayList<>();
        all.add(info.command().get());
        if (ManagementFactory.getRuntimeMXBean().getInputArguments().stream().noneMatch(a -> a.startsWith("-XX:ErrorFile="))) {
            all.add("-XX:ErrorFile=" + crashes().resolve("hs_err_pid%p.log"));
        }
        all.addAll(List.of(info.arguments().get()));
        return Optional.of(all);
    }
}
