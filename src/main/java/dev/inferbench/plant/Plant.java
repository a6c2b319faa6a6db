package dev.inferbench.plant;

import dev.inferbench.BenchException;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the {@code stub} engine does per call, known exactly so that a figure can be held against it: a calibration's
 * planted truth. Given as {@code -Dinferbench.stub=KEY=VALUE,...} among the forks' JVM arguments:
 * <ul>
 *   <li>{@code call=1ms}: each call spins this long on the wall clock (a fixed service time: 1 ms on one caller is a
 *       capacity of 1,000 calls/s);</li>
 *   <li>{@code cpu=1ms}: each call spins until its thread has used this much CPU time (a CPU cost per call that holds
 *       even when the thread is preempted);</li>
 *   <li>{@code alloc=4096}: each call allocates exactly this many bytes of Java heap (a multiple of 8, 0 or at least
 *       16: one byte array, whose 16-byte header is counted);</li>
 *   <li>{@code prefill=20ms}, {@code token=5ms}: a decoder's prompt step and each further token's step spin this long
 *       on the wall clock (TTFT and TPOT);</li>
 *   <li>{@code tail=20ms/50}: every 50th call spins 20 ms instead of {@code call} (a known tail: 2 % of the calls, so
 *       p99 and max read 20 ms while p50 and p95 read {@code call});</li>
 *   <li>{@code load=2s}: opening the engine waits this long more (the load time); {@code first=200ms}: the engine's
 *       first call spins this long more (the first inference);</li>
 *   <li>{@code native=512MiB}, {@code heap=256MiB}: the engine holds this much native memory (a direct buffer, every
 *       page written) or Java heap (byte arrays) from its load to its close (the model's resident memory, the heap
 *       in use).</li>
 * </ul>
 * Durations take us, ms or s; memory MiB. Every key defaults to 0.
 *
 * @param tailEvery every how many calls one spins {@code tailNanos} instead of {@code callNanos} (0: none)
 */
public record Plant(long callNanos, long cpuNanos, int allocBytes, long prefillNanos, long tokenNanos,
                    long tailNanos, int tailEvery, long loadNanos, long firstNanos, long nativeBytes,
                    long heapBytes) {
    public static final String PROPERTY = "inferbench.stub";
    /** A byte array's header on a 64-bit HotSpot (compressed class pointers): 16 bytes, then the data 8-aligned. */
    static final int ARRAY_HEADER = 16;
    private static final String NUMBER = "(\\d+(?:\\.\\d+)?)";
    private static final Pattern ENTRY = Pattern.compile("(call|cpu|alloc|prefill|token|load|first)=" + NUMBER
            + "(us|µs|ms|s)?");
    private static final Pattern TAIL = Pattern.compile("tail=" + NUMBER + "(us|µs|ms|s)/(\\d+)");
    private static final Pattern MEMORY = Pattern.compile("(native|heap)=(\\d+)mib");
    private static final long MIB = 1 << 20;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static final Plant NONE = new Plant(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** The per-call plants alone, the others 0. */
    public Plant(long callNanos, long cpuNanos, int allocBytes, long prefillNanos, long tokenNanos) {
        this(callNanos, cpuNanos, allocBytes, prefillNanos, tokenNanos, 0, 0, 0, 0, 0, 0);
    }

    /** The plant this JVM was given, {@link #NONE} without the property. */
    public static Plant ofProperty() throws BenchException {
        String text = System.getProperty(PROPERTY);
        return text == null || text.isBlank() ? NONE : parse(text);
    }

    public static Plant parse(String text) throws BenchException {
        long call = 0;
        long cpu = 0;
        long prefill = 0;
        long token = 0;
        long tail = 0;
        int every = 0;
        long load = 0;
        long first = 0;
        long nativeBytes = 0;
        long heap = 0;
        int alloc = 0;
        for (String part : text.split(",")) {
            String entry = part.trim().toLowerCase(Locale.ROOT);
            Matcher t = TAIL.matcher(entry);
            Matcher mem = MEMORY.matcher(entry);
            Matcher m = ENTRY.matcher(entry);
            if (t.matches() && Integer.parseInt(t.group(3)) >= 2) {
                tail = nanos(Double.parseDouble(t.group(1)), t.group(2));
                every = Integer.parseInt(t.group(3));
                continue;
            }
            if (mem.matches() && Long.parseLong(mem.group(2)) < 2048) {
                long bytes = Long.parseLong(mem.group(2)) * MIB;
                if (mem.group(1).equals("native")) {
                    nativeBytes = bytes;
                } else {
                    heap = bytes;
                }
                continue;
            }
            if (!m.matches() || m.group(1).equals("alloc") != (m.group(3) == null)) {
                throw new BenchException("-D" + PROPERTY + "=" + text + ": cannot read '" + part.trim() + "'; expected"
                        + " call=, cpu=, prefill=, token=, load= or first= with a duration (e.g. call=1ms), alloc= with"
                        + " bytes, tail= with a duration and every how many calls (tail=20ms/50), native= or heap="
                        + " with MiB below 2048 (native=512MiB), joined by commas");
            }
            double v = Double.parseDouble(m.group(2));
            switch (m.group(1)) {
                case "alloc" -> alloc = bytes(v, m.group(2), text);
                case "call" -> call = nanos(v, m.group(3));
                case "cpu" -> cpu = nanos(v, m.group(3));
                case "prefill" -> prefill = nanos(v, m.group(3));
                case "load" -> load = nanos(v, m.group(3));
                case "first" -> first = nanos(v, m.group(3));
                default -> token = nanos(v, m.group(3));
            }
        }
        return new Plant(call, cpu, alloc, prefill, token, tail, every, load, first, nativeBytes, heap);
    }

    private static int bytes(double v, String given, String text) throws BenchException {
        if (v != Math.rint(v) || v > 1 << 30 || v != 0 && (v < ARRAY_HEADER || v % 8 != 0)) {
            throw new BenchException("-D" + PROPERTY + "=" + text + ": alloc=" + given + " cannot be planted exactly;"
                    + " expected 0 or a multiple of 8 from 16 to 2^30 bytes (one byte array and its 16-byte header)");
        }
        return (int) v;
    }

    /** A planted duration, ns: {@code v} in {@code unit} (s, ms, else µs), as every plant's keys give it. */
    public static long nanos(double v, String unit) {
        double scale = switch (unit) {
            case "s" -> 1e9;
            case "ms" -> 1e6;
            default -> 1e3;
        };
        return Math.round(v * scale);
    }

    /** One call's planted work: its heap bytes, then its CPU time, then its wall time. */
    public Object call() {
        return work(callNanos);
    }

    /**
     * The {@code n}-th call's planted work (from 1): its heap bytes, its CPU time, then its wall time, which is the
     * tail's on every {@code tailEvery}-th call, and the first call's extra on the first.
     */
    public Object call(long n) {
        long wall = tailEvery > 0 && n % tailEvery == 0 ? tailNanos : callNanos;
        return work(n == 1 ? wall + firstNanos : wall);
    }

    private Object work(long wallNanos) {
        Object kept = allocBytes == 0 ? null : new byte[allocBytes - ARRAY_HEADER];
        spinCpu(cpuNanos);
        spinWall(wallNanos);
        return kept;
    }

    public static void spinWall(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static void spinCpu(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long end = THREADS.getCurrentThreadCpuTime() + nanos;
        while (THREADS.getCurrentThreadCpuTime() < end) {
            Thread.onSpinWait();
        }
    }

    /** The plant as it is written, for the run's console. */
    public String describe() {
        return "stub engine plants per call: " + (callNanos / 1e6) + " ms wall, " + (cpuNanos / 1e6) + " ms CPU, "
                + allocBytes + " B heap" + (tailEvery > 0 ? ", every " + tailEvery + "th " + (tailNanos / 1e6)
                + " ms wall instead" : "") + "; per decoder step: prefill " + (prefillNanos / 1e6) + " ms, token "
                + (tokenNanos / 1e6) + " ms; at load: " + (loadNanos / 1e6) + " ms more, " + nativeBytes / MIB
                + " MiB native and " + heapBytes / MIB + " MiB heap held; first call " + (firstNanos / 1e6)
                + " ms more";
    }

    /**
     * The load's planted work: waits {@code loadNanos} and returns what the engine holds until it closes, the native
     * buffer with every page written and the heap arrays (null when neither is planted).
     */
    public Object[] load() {
        spinWall(loadNanos);
        if (nativeBytes == 0 && heapBytes == 0) {
            return null;
        }
        java.nio.ByteBuffer buffer = nativeBytes == 0 ? null : java.nio.ByteBuffer.allocateDirect((int) nativeBytes);
        for (int at = 0; buffer != null && at < buffer.capacity(); at += 4096) {
            buffer.put(at, (byte) 1);
        }
        byte[][] heap = new byte[(int) (heapBytes / MIB)][];
        for (int i = 0; i < heap.length; i++) {
            heap[i] = new byte[(int) MIB];
            heap[i][0] = 1;
        }
        return new Object[] {buffer, heap};
    }
}
