package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.engine.OrtProfiledRun;
import one.profiler.AsyncProfiler;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * async-profiler's cpu samples and the JVM's counters over the measured calls of an operator pass, in the pass's own
 * JVM (the launcher's): the profiler is loaded into it once and started and stopped around each pass's measured
 * calls, never its warm-up, never a timed fork. The recording is read into {@link PassFrames} and the collapsed
 * stacks (for the differential flame graph of the two sides), then deleted.
 */
final class FrameSampler implements OrtProfiledRun.Window {
    /** 2 kHz per thread: a pass of 250 ms gives its calling thread about 500 samples at a cost of a few per cent. */
    static final long INTERVAL_NS = 500_000;
    private static final String EVENT = "cpu";

    private final AsyncProfiler profiler;
    private final Path jfr;
    private final com.sun.management.ThreadMXBean threads;
    private boolean running;
    private long bytes;
    private long gcMs;
    private long jitMs;
    private int calls;

    private FrameSampler(AsyncProfiler profiler, Path jfr) {
        this.profiler = profiler;
        this.jfr = jfr;
        this.threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }

    /** A sampler writing its recording to {@code jfr}; fails where the profiler's library cannot be loaded. */
    static FrameSampler open(Path jfr) throws BenchException {
        String library = FlameHook.profilerLibrary().toString();
        try {
            return new FrameSampler(AsyncProfiler.getInstance(library), jfr);
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            throw new BenchException("cannot load async-profiler from " + library + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void begin() throws BenchException {
        bytes = threads.getCurrentThreadAllocatedBytes();
        gcMs = gcMillis();
        jitMs = jitMillis();
        try {
            profiler.execute("start,event=" + EVENT + ",interval=" + INTERVAL_NS + ",jfr,file=" + jfr);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot start async-profiler: " + e.getMessage(), e);
        }
        running = true;
    }

    @Override
    public void end(int measured) throws BenchException {
        calls = measured;
        try {
            profiler.execute("stop");
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot stop async-profiler: " + e.getMessage(), e);
        } finally {
            running = false;
        }
        bytes = threads.getCurrentThreadAllocatedBytes() - bytes;
        gcMs = gcMillis() - gcMs;
        jitMs = jitMillis() - jitMs;
    }

    /** Stops the profiler if a pass failed between {@link #begin} and {@link #end}; silent. */
    void abort() {
        if (running) {
            try {
                profiler.execute("stop");
            } catch (IOException | RuntimeException ignored) {
                // the pass already failed; its line says why
            }
            running = false;
        }
    }

    /**
     * Reads the recording into the pass's figures and writes its collapsed stacks to {@code stacks}; the recording is
     * deleted.
     */
    PassFrames read(Path stacks) throws BenchException {
        try {
            String engine = FlameGraphs.engine(jfr);
            JfrSamples.Recording r = JfrSamples.recording(jfr, EVENT);
            Map<String, Long> groups = new LinkedHashMap<>();
            for (FrameGroup g : FrameGroup.values()) {
                groups.put(g.label(), 0L);
            }
            Map<String, Long> collapsed = new LinkedHashMap<>();
            for (OperatorJoin.Sample s : r.samples()) {
                groups.merge(FrameGroup.of(r.threads().get(s.tid()), s.frames()).label(), 1L, Long::sum);
                collapsed.merge(String.join(";", s.frames().stream().map(FrameSampler::library).toList()), 1L,
                        Long::sum);
            }
            write(stacks, collapsed);
            int n = Math.max(calls, 1);
            return new PassFrames(engine, r.samples().size(), groups, (double) bytes / n, (double) gcMs / n,
                    (double) jitMs / n, stacks.getFileName().toString());
        } finally {
            try {
                Files.deleteIfExists(jfr);
            } catch (IOException ignored) {
                // a recording left behind costs disk only; the next pass overwrites it
            }
        }
    }

    /**
     * A frame that names a library by its path ({@code /tmp/onnxruntime-java123/libonnxruntime.so}, where ORT
     * extracted itself this time) by its file name only, so that the two sides' graphs name the same library alike.
     */
    static String library(String frame) {
        int slash = frame.lastIndexOf('/');
        return frame.startsWith("/") && slash >= 0 && frame.indexOf(".so", slash) > 0 ? frame.substring(slash + 1) : frame;
    }

    private static void write(Path file, Map<String, Long> stacks) throws BenchException {
        try {
            AtomicFile.write(file, o -> {
                PrintStream out = new PrintStream(o, false, StandardCharsets.UTF_8);
                stacks.forEach((stack, n) -> out.println(stack + " " + n));
                out.flush();
            });
        } catch (IOException e) {
            throw new BenchException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static long gcMillis() {
        long ms = 0;
        List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        for (GarbageCollectorMXBean gc : gcs) {
            ms += Math.max(0, gc.getCollectionTime());
        }
        return ms;
    }

    private static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }
}
