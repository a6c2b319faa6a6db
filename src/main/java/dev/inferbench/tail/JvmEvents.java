package dev.inferbench.tail;

import dev.inferbench.plant.PlantedCause;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fork's JFR recording of what can slow a call, and only that: GC pause phases, safepoints (their
 * synchronisation, the VM operation they ran and their end), compilations, deoptimizations and each thread's parks,
 * monitor waits and sleeps, every one however short (threshold 0), without stack traces. {@link #read} turns the
 * recording into {@link Episode}s on {@link System#nanoTime}'s clock, aligned by {@link ClockMark}s.
 */
public final class JvmEvents implements AutoCloseable {
    static final String GC_PAUSE = "jdk.GCPhasePause";
    static final String SAFEPOINT_BEGIN = "jdk.SafepointBegin";
    static final String SAFEPOINT_END = "jdk.SafepointEnd";
    static final String VM_OPERATION = "jdk.ExecuteVMOperation";
    static final String COMPILATION = "jdk.Compilation";
    static final String DEOPTIMIZATION = "jdk.Deoptimization";
    static final List<String> WAITS = List.of("jdk.ThreadPark", "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait",
            "jdk.ThreadSleep");

    /** What a recording held: the episodes and the planted causes, on the recorder's clock. */
    record Read(List<Episode> episodes, List<ForkTail.Planted> planted) {
    }

    private final Recording recording;

    private JvmEvents(Recording recording) {
        this.recording = recording;
    }

    /** Starts the recording; {@code calibrate tail-check --jfr} starts it too, to price it in one JVM. */
    public static JvmEvents start() {
        Recording r = new Recording();
        r.setName("inferbench-tail");
        r.setToDisk(true);
        List<String> timed = new ArrayList<>(List.of(GC_PAUSE, SAFEPOINT_BEGIN, SAFEPOINT_END, VM_OPERATION,
                COMPILATION));
        timed.addAll(WAITS);
        for (String name : timed) {
            r.enable(name).withThreshold(Duration.ZERO).withoutStackTrace();
        }
        r.enable(DEOPTIMIZATION).withoutStackTrace();
        r.enable(ClockMark.NAME);
        r.enable(PlantedCause.NAME);
        r.start();
        ClockMark.now();
        return new JvmEvents(r);
    }

    /** Writes what was recorded so far to {@code file} (a mark first, so that the clock is aligned up to now). */
    void dump(Path file) throws IOException {
        ClockMark.now();
        recording.dump(file);
    }

    static Read read(Path file) throws IOException {
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        long[] offsets = events.stream().filter(e -> e.getEventType().getName().equals(ClockMark.NAME))
                .mapToLong(e -> nanos(e.getStartTime()) - e.getLong("nanoTime")).sorted().toArray();
        if (offsets.length == 0) {
            return new Read(List.of(), List.of());
        }
        long offset = offsets[offsets.length / 2];
        return of(events, offset);
    }

    /** The episodes and plants of {@code events}, whose times less {@code offset} are on the recorder's clock. */
    static Read of(List<RecordedEvent> events, long offset) {
        List<Episode> out = new ArrayList<>();
        List<ForkTail.Planted> planted = new ArrayList<>();
        Map<Long, long[]> safepoints = new HashMap<>();
        Map<Long, String> operations = new HashMap<>();
        for (RecordedEvent e : events) {
            String type = e.getEventType().getName();
            long start = nanos(e.getStartTime()) - offset;
            long end = nanos(e.getEndTime()) - offset;
            switch (type) {
                case GC_PAUSE -> out.add(new Episode(Cause.GC, start, end, Episode.ALL_THREADS, text(e, "name")));
                case SAFEPOINT_BEGIN, SAFEPOINT_END -> {
                    long[] span = safepoints.computeIfAbsent(e.getLong("safepointId"),
                            k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
                    span[0] = Math.min(span[0], start);
                    span[1] = Math.max(span[1], end);
                }
                case VM_OPERATION -> {
                    if (e.getBoolean("safepoint")) {
                        long id = e.getLong("safepointId");
                        operations.put(id, text(e, "operation"));
                        long[] span = safepoints.computeIfAbsent(id, k -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
                        span[0] = Math.min(span[0], start);
                        span[1] = Math.max(span[1], end);
                    }
                }
                case COMPILATION -> out.add(new Episode(Cause.COMPILE, start, end, Episode.ALL_THREADS, method(e)));
                case DEOPTIMIZATION -> out.add(new Episode(Cause.DEOPT, start, start, thread(e),
                        method(e) + " (" + text(e, "reason") + ")"));
                case PlantedCause.NAME -> planted.add(new ForkTail.Planted(text(e, "cause"), start, thread(e)));
                default -> {
                    if (WAITS.contains(type)) {
                        out.add(new Episode(Cause.WAIT, start, end, thread(e), type.substring(4)));
                    }
                }
            }
        }
        safepoints.forEach((id, span) -> {
            String operation = operations.getOrDefault(id, "");
            out.add(new Episode(collects(operation) ? Cause.GC : Cause.SAFEPOINT, span[0], span[1],
                    Episode.ALL_THREADS, operation.isEmpty() ? "safepoint " + id : operation));
        });
        return new Read(out, planted);
    }

    /** Whether a VM operation is a collection ({@code G1CollectFull}, {@code ParallelGCSystemGC}, ...). */
    static boolean collects(String operation) {
        String o = operation.toLowerCase(Locale.ROOT);
        return o.contains("collect") || o.contains("gc") || o.contains("pause");
    }

    private static long thread(RecordedEvent e) {
        RecordedThread t = e.getThread();
        return t == null ? Episode.ALL_THREADS - 1 : t.getJavaThreadId();
    }

    private static String text(RecordedEvent e, String field) {
        if (!e.hasField(field)) {
            return "";
        }
        Object v = e.getValue(field);
        return v == null ? "" : v.toString();
    }

    private static String method(RecordedEvent e) {
        if (!e.hasField("method") || e.getValue("method") == null) {
            return "";
        }
        jdk.jfr.consumer.RecordedMethod m = e.getValue("method");
        return m.getType().getName() + "." + m.getName();
    }

    static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Override
    public void close() {
        recording.close();
    }
}
