package dev.inferbench.metrics;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The threads that serve calls, and the CPU time they spend: the <b>callers</b> (each joins while it serves: JMH's
 * worker threads in a closed loop, the open loop's caller threads) and the <b>engine's threads</b> (ORT's intra-op
 * and inter-op pools, libtorch's: the native threads a caller started while it loaded the engine and ran its first
 * call). Summed over an iteration, that is the serving side's CPU measured the same way in a closed and an open loop:
 * the load generator, the JVM's compiler and GC threads and JMH's own threads are not in it ({@link CpuProfiler}).
 *
 * <p>Each thread's CPU comes from its own clock in the kernel, {@code /proc/self/task/TID/schedstat} (ns on the CPU);
 * a thread that stops serving during an iteration adds what it spent before it goes. The callers' CPU inside their
 * calls is counted apart where the loop marks its calls ({@link #callStarts}, {@link #callEnds}): the rest of a
 * caller's CPU is spent waiting for and taking requests. Without {@code /proc} (not Linux) nothing is counted.
 */
public final class ServingThreads {
    private static final Path TASKS = Path.of("/proc/self/task");
    private static final Path SELF = Path.of("/proc/thread-self");
    /** Callers serving now: thread id to its CPU when the iteration started or it joined, whichever was later. */
    private static final Map<Integer, Long> CALLERS = new ConcurrentHashMap<>();
    /** Engine threads: likewise. */
    private static final Map<Integer, Long> ENGINE = new ConcurrentHashMap<>();
    /** The name each engine thread had when it was taken (its loader's). */
    private static final Map<Integer, String> ENGINE_NAMES = new ConcurrentHashMap<>();
    /** CPU of callers and engine threads that stopped serving during the iteration, since its start. */
    private static final Handoff.Tally CALLERS_LEFT = new Handoff.Tally();
    private static final Handoff.Tally ENGINE_LEFT = new Handoff.Tally();
    /** The callers' CPU inside calls they marked, this iteration. */
    private static final Handoff.Tally INSIDE = new Handoff.Tally();
    /** The callers' CPU spent as the load generator (awake for the next arrival), this iteration: not serving. */
    private static final Handoff.Tally GENERATING = new Handoff.Tally();
    private static final ThreadLocal<long[]> CALL_START = ThreadLocal.withInitial(() -> new long[1]);
    /**
     * The {@link #clear} a caller joined after, per thread (0: not serving): a call marked by a thread that has left,
     * or that joined before everything was forgotten, is not the serving side's.
     */
    private static final ThreadLocal<int[]> JOINED = ThreadLocal.withInitial(() -> new int[1]);
    private static volatile int epoch = 1;
    private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();

    /** An iteration's CPU of the serving threads, ns; {@code inside} is -1 where no caller marked its calls. */
    public record Cpu(long callers, long engine, long inside) {
        public long serving() {
            return callers + engine;
        }
    }

    private ServingThreads() {
    }

    /** The current thread serves calls from now on (a caller). */
    public static void join() {
        JOINED.get()[0] = epoch;
        int tid = currentTid();
        if (tid > 0) {
            CALLERS.put(tid, cpu(tid));
        }
    }

    /** The current thread stops serving: what it spent since the iteration started (or it joined) is kept. */
    public static void leave() {
        JOINED.get()[0] = 0;
        int tid = currentTid();
        Long since = tid > 0 ? CALLERS.remove(tid) : null;
        if (since != null) {
            CALLERS_LEFT.add(Math.max(0, cpu(tid) - since));
        }
    }

    /** Marks the start of the current caller's call (two reads of its CPU clock per call: about a microsecond). */
    public static void callStarts() {
        CALL_START.get()[0] = BEAN.getCurrentThreadCpuTime();
    }

    /**
     * Marks the end of the current caller's call: its CPU since {@link #callStarts} counts as inside calls, where the
     * thread is a caller ({@link #join}ed and not left).
     */
    public static void callEnds() {
        long start = CALL_START.get()[0];
        if (start > 0 && JOINED.get()[0] == epoch) {
            INSIDE.add(Math.max(0, BEAN.getCurrentThreadCpuTime() - start));
        }
    }

    /**
     * The current caller spent {@code cpuNanos} as the load generator (spinning for the next arrival, to issue it on
     * time): that CPU is taken out of the callers' ({@link CpuProfiler#GENERATOR_CPU} counts it).
     */
    public static void generating(long cpuNanos) {
        GENERATING.add(Math.max(0, cpuNanos));
    }

    /** The current thread's CPU time in ns (its own clock), 0 where the JVM does not measure it. */
    public static long threadCpu() {
        return BEAN.isCurrentThreadCpuTimeSupported() ? Math.max(0, BEAN.getCurrentThreadCpuTime()) : 0;
    }

    /** The process's thread ids now, empty without /proc: what {@link #adoptStartedSince} compares against. */
    public static Set<Integer> threads() {
        Set<Integer> out = new HashSet<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            tasks.forEach(t -> {
                try {
                    out.add(Integer.parseInt(t.getFileName().toString()));
                } catch (NumberFormatException notATask) {
                    // only numbered entries are threads
                }
            });
        } catch (IOException | UncheckedIOException noProc) {
            return Set.of();
        }
        return out;
    }

    /**
     * Takes as engine threads those started since {@code before} that carry the current thread's name: a native
     * thread inherits the name of the thread that started it (ORT names none of its pool threads), while the JVM
     * names its own (compiler, GC) and every Java thread after itself, so those are left out.
     *
     * @return the ids taken, for {@link #retire} when the engine closes
     */
    public static List<Integer> adoptStartedSince(Set<Integer> before) {
        int self = currentTid();
        if (self <= 0) {
            return List.of();
        }
        String name = comm(self);
        List<Integer> taken = threads().stream().filter(t -> !before.contains(t) && t != self)
                .filter(t -> name != null && name.equals(comm(t))).sorted().toList();
        taken.forEach(t -> {
            ENGINE.put(t, cpu(t));
            ENGINE_NAMES.put(t, name);
        });
        return taken;
    }

    /** Engine threads about to end with their engine: what they spent this iteration is kept. */
    public static void retire(Collection<Integer> tids) {
        for (Integer t : tids) {
            ENGINE_NAMES.remove(t);
            Long since = ENGINE.remove(t);
            if (since != null) {
                ENGINE_LEFT.add(Math.max(0, cpu(t) - since));
            }
        }
    }

    /**
     * At an iteration's start: every serving thread's clock is read anew. A Java thread started during the load carries
     * its starter's name for the moment before it sets its own: one whose name has changed since is no engine thread.
     */
    static void reset() {
        ENGINE.keySet().removeIf(t -> !ENGINE_NAMES.getOrDefault(t, "").equals(comm(t)));
        CALLERS.replaceAll((t, v) -> cpu(t));
        ENGINE.replaceAll((t, v) -> cpu(t));
        CALLERS_LEFT.reset();
        ENGINE_LEFT.reset();
        INSIDE.reset();
        GENERATING.reset();
    }

    /** What the serving threads spent since {@link #reset}; null when no thread serves or none could be read. */
    static Cpu counted() {
        if (CALLERS.isEmpty() && ENGINE.isEmpty() && CALLERS_LEFT.sum() == 0 && ENGINE_LEFT.sum() == 0) {
            return null;
        }
        long callers = Math.max(0, CALLERS_LEFT.sum() + since(CALLERS) - GENERATING.sum());
        long engine = ENGINE_LEFT.sum() + since(ENGINE);
        long inside = INSIDE.sum();
        return new Cpu(callers, engine, inside > 0 ? inside : -1);
    }

    /** Forgets every thread: a test's fresh start (a fork is one JVM, so runs never need it). */
    static void clear() {
        epoch++;
        CALLERS.clear();
        ENGINE.clear();
        ENGINE_NAMES.clear();
        reset();
    }

    private static long since(Map<Integer, Long> threads) {
        long sum = 0;
        for (Map.Entry<Integer, Long> e : threads.entrySet()) {
            long now = cpu(e.getKey());
            sum += now < 0 ? 0 : Math.max(0, now - e.getValue()); // a thread gone unannounced: its share is lost
        }
        return sum;
    }

    /** The thread's CPU time in ns from the kernel's schedstat; -1 where it cannot be read (gone, or no /proc). */
    static long cpu(int tid) {
        try {
            String s = Files.readString(TASKS.resolve(Integer.toString(tid)).resolve("schedstat"));
            int space = s.indexOf(' ');
            return Long.parseLong(space < 0 ? s.strip() : s.substring(0, space));
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    /** The thread's name as the kernel has it (15 characters at most), null where it cannot be read. */
    static String comm(int tid) {
        try {
            return Files.readString(TASKS.resolve(Integer.toString(tid)).resolve("comm")).strip();
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }

    /** The current thread's kernel id, from {@code /proc/thread-self} ("PID/task/TID"); -1 without it. */
    static int currentTid() {
        try {
            return Integer.parseInt(Files.readSymbolicLink(SELF).getFileName().toString());
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }
}
