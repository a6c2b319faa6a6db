package dev.inferbench.engine;

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
 *       on the wall clock (TTFT and TPOT).</li>
 * </ul>
 * Durations take us, ms or s. Every key defaults to 0.
 */
public record Plant(long callNanos, long cpuNanos, int allocBytes, long prefillNanos, long tokenNanos) {
    public static final String PROPERTY = "inferbench.stub";
    /** A byte array's header on a 64-bit HotSpot (compressed class pointers): 16 bytes, then the data 8-aligned. */
    static final int ARRAY_HEADER = 16;
    private static final Pattern ENTRY = Pattern.compile("(call|cpu|alloc|prefill|token)=(\\d+(?:\\.\\d+)?)(us|µs|ms|s)?");
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    public static final Plant NONE = new Plant(0, 0, 0, 0, 0);

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
        int alloc = 0;
        for (String part : text.split(",")) {
            Matcher m = ENTRY.matcher(part.trim().toLowerCase(Locale.ROOT));
            if (!m.matches() || m.group(1).equals("alloc") != (m.group(3) == null)) {
                throw new BenchException("-D" + PROPERTY + "=" + text + ": cannot read '" + part.trim() + "'; expected"
                        + " call=, cpu=, prefill= or token= with a duration (e.g. call=1ms) or alloc= with bytes, joined"
                        + " by commas");
            }
            double v = Double.parseDouble(m.group(2));
            switch (m.group(1)) {
                case "alloc" -> alloc = bytes(v, m.group(2), text);
                case "call" -> call = nanos(v, m.group(3));
                case "cpu" -> cpu = nanos(v, m.group(3));
                case "prefill" -> prefill = nanos(v, m.group(3));
                default -> token = nanos(v, m.group(3));
            }
        }
        return new Plant(call, cpu, alloc, prefill, token);
    }

    private static int bytes(double v, String given, String text) throws BenchException {
        if (v != Math.rint(v) || v > 1 << 30 || v != 0 && (v < ARRAY_HEADER || v % 8 != 0)) {
            throw new BenchException("-D" + PROPERTY + "=" + text + ": alloc=" + given + " cannot be planted exactly;"
                    + " expected 0 or a multiple of 8 from 16 to 2^30 bytes (one byte array and its 16-byte header)");
        }
        return (int) v;
    }

    private static long nanos(double v, String unit) {
        double scale = switch (unit) {
            case "s" -> 1e9;
            case "ms" -> 1e6;
            default -> 1e3;
        };
        return Math.round(v * scale);
    }

    /** One call's planted work: its heap bytes, then its CPU time, then its wall time. */
    Object call() {
        Object kept = allocBytes == 0 ? null : new byte[allocBytes - ARRAY_HEADER];
        spinCpu(cpuNanos);
        spinWall(callNanos);
        return kept;
    }

    static void spinWall(long nanos) {
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
                + allocBytes + " B heap; per decoder step: prefill " + (prefillNanos / 1e6) + " ms, token "
                + (tokenNanos / 1e6) + " ms";
    }
}
