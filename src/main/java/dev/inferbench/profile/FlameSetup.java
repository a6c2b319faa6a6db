package dev.inferbench.profile;

import dev.inferbench.BenchException;
import dev.inferbench.run.ForkHook;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything a profiled run needs before its first fork, checked in the launcher so that a problem is one line
 * before any measurement: the profiler's library in the cache, each asked-for event tried here (an event this
 * machine cannot give is named with the profiler's reason), which engine {@code cpu} really uses (stated on the
 * console and in {@code flames/profiler.txt}), ONNX Runtime's libraries kept on disk for symbols, and a writable
 * output folder.
 */
public final class FlameSetup {
    static final String INFO_FILE = "profiler.txt";

    private FlameSetup() {
    }

    /**
     * The hook that profiles every fork, or empty when profiling cannot be set up and the user asked to go on
     * without it ({@code --flame-optional}; the reason is printed).
     */
    public static Optional<ForkHook> hook(FlameSettings settings, Path runDir, PrintStream out) throws BenchException {
        try {
            return Optional.of(prepare(settings, runDir, out));
        } catch (BenchException e) {
            if (!settings.optional()) {
                throw e;
            }
            out.println("inferbench: flame graphs off, the run goes on unprofiled: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static ForkHook prepare(FlameSettings settings, Path runDir, PrintStream out) throws BenchException {
        Path library = AsyncProfilerLibrary.path();
        Path flames = runDir.resolve(FlameHook.FOLDER);
        List<String> lines = new ArrayList<>();
        lines.add("async-profiler library: " + library);
        lines.add("options per fork: -prof async:" + settings.asyncOptions(library, flames.resolve("<cell-id>/fork-N")));
        Map<String, String> probe = ProfilerProbe.probe(library, settings.events());
        for (String event : settings.events()) {
            String why = probe.getOrDefault(event, "no answer from the profiler");
            if (why.equals(ProfilerProbe.UNKNOWN)) {
                throw new BenchException("unknown flame event '" + event + "' (async-profiler does not know it); "
                        + "expected cpu, alloc, wall, lock, itimer, ctimer or a perf event name");
            }
            if (!why.equals(ProfilerProbe.OK)) {
                throw new BenchException("flame event '" + event + "' is not available on this machine: " + why
                        + "; expected one of cpu, alloc, wall, lock, itimer, ctimer");
            }
        }
        if (settings.samplesCpu()) {
            String engine = probe.getOrDefault("cpu-engine", "unknown");
            String line = "cpu samples come from " + engine + (engine.equals("perf_events") ? ""
                    : " (perf_events not allowed here: kernel.perf_event_paranoid=" + paranoid() + " or a seccomp filter)");
            lines.add(line);
            out.println("inferbench: flame graphs: " + line);
        }
        List<String> jvmArgs = OrtLibraries.keep(NativeLibraryCache.defaultRoot());
        jvmArgs.forEach(a -> lines.add("fork JVM option: " + a));
        try {
            Files.createDirectories(flames);
            Files.writeString(flames.resolve(INFO_FILE), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BenchException("cannot write flame graphs to " + flames + ": " + e.getMessage()
                    + "; expected a writable run folder", e);
        }
        return new FlameHook(settings, library, runDir, jvmArgs);
    }

    private static String paranoid() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
        } catch (IOException e) {
            return "unreadable";
        }
    }
}
