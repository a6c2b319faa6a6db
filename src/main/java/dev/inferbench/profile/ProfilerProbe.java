package dev.inferbench.profile;

import dev.inferbench.BenchException;
import one.profiler.AsyncProfiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Asks async-profiler, in a JVM of its own, which events this machine can give and which engine {@code cpu} uses.
 * A JVM of its own because a library loaded here binds its natives to {@code one.profiler.AsyncProfiler}, after
 * which JMH's profiler cannot load it in the same JVM ("Profilers failed to initialize").
 *
 * <p>cpu engine: perf_events when a perf event starts, else ctimer (async-profiler's fallback on Linux), else itimer.
 */
public final class ProfilerProbe {
    static final String OK = "ok";
    static final String UNKNOWN = "async-profiler does not know it";

    private ProfilerProbe() {
    }

    /** Per event, {@link #OK} or the profiler's reason; plus {@code cpu-engine} -> the engine cpu samples use. */
    static Map<String, String> probe(Path library, List<String> events) throws BenchException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                ProfilerProbe.class.getName(), library.toString()));
        command.addAll(events);
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new BenchException("async-profiler could not be loaded from " + library
                        + "; expected a library for this platform (exit " + p.exitValue() + ")");
            }
            Map<String, String> result = new LinkedHashMap<>();
            output.lines().map(l -> l.split("\t", 2)).filter(kv -> kv.length == 2).forEach(kv -> result.put(kv[0], kv[1]));
            return result;
        } catch (IOException e) {
            throw new BenchException("cannot start a JVM to probe async-profiler: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while probing async-profiler", e);
        }
    }

    public static void main(String[] args) {
        AsyncProfiler profiler = AsyncProfiler.getInstance(args[0]);
        for (int i = 1; i < args.length; i++) {
            System.out.println(args[i] + "\t" + tryEvent(profiler, args[i]));
        }
        String engine = tryEvent(profiler, "cpu-clock").equals(OK) ? "perf_events"
                : tryEvent(profiler, "ctimer").equals(OK) ? "ctimer" : "itimer";
        System.out.println("cpu-engine\t" + engine);
    }

    private static String tryEvent(AsyncProfiler profiler, String event) {
        try {
            profiler.execute("start,event=" + event + ",interval=100ms");
            profiler.execute("stop");
            return OK;
        } catch (IOException | RuntimeException e) {
            String why = String.valueOf(e.getMessage());
            return why.toLowerCase(Locale.ROOT).contains("unsupported event") ? UNKNOWN : why;
        }
    }
}
