package dev.inferbench.commits;

import dev.inferbench.compare.MachineRecord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machine around each fork of a comparison, taken outside the measured JVMs so that no build can move it
 * ({@value MachineRecord#FILE}, which {@code compare} reads to leave disturbed pairs out): around each fork, other
 * processes' CPU from /proc (the machine's busy time less this process's and the two launchers' process trees), and
 * between pairs a canary, a fixed integer loop of this JVM, the same instructions whichever build runs.
 */
final class MachineLog {
    private static final String HEADER = "pair\tside\tstart_us\tend_us\tothers_cores\tcanary_before_ms\tcanary_after_ms";
    private static final int CANARY_LOOP = 1_000_000;
    private static final Path STAT = Path.of("/proc/stat");

    private final ComparisonFolder folder;
    private final boolean proc;
    private final double ticksPerSecond;
    /** The canary's readings in microseconds: index 0 before pair 1, index p after pair p. */
    private final List<Long> canary = new ArrayList<>();
    private final Map<String, long[]> windows = new HashMap<>();
    private final Map<String, String> others = new HashMap<>();
    private static volatile long sink;
    /** Processes of the comparison's own besides the launchers ({@link KeptBusy}), counted as ours. */
    private final List<Long> alsoOurs = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** One reading of the clock, the machine's busy ticks and those of this process's and the launchers' trees. */
    private record Sample(long micros, long busy, long ours) {
    }

    MachineLog(Path out, double ticksPerSecond) throws Stop {
        this.folder = new ComparisonFolder(out);
        this.proc = Files.isReadable(STAT) && Files.isReadable(Path.of("/proc/self/stat"));
        this.ticksPerSecond = ticksPerSecond;
        folder.write(MachineRecord.FILE, HEADER);
        for (int i = 0; i < 5; i++) {
            time(); // compiled before its first reading: an interpreted loop would read as a slow machine
        }
    }

    /** The fastest of 3 timings of the loop: a blip of another process slows one timing, a slow machine all three. */
    void canary() {
        canary.add(Math.min(time(), Math.min(time(), time())));
    }

    long lastCanaryMicros() {
        return canary.get(canary.size() - 1);
    }

    private static long time() {
        long t0 = System.nanoTime();
        long x = 1;
        for (int i = 0; i < CANARY_LOOP; i++) {
            x = (x * 1103515245L + 12345L) & 0x7fffffffL;
        }
        sink = x;
        return (System.nanoTime() - t0) / 1000;
    }

    void alsoOurs(long pid) {
        alsoOurs.add(pid);
    }

    void forkBegan(String side, long... pids) {
        Sample s = sample(pids);
        windows.put(side, new long[] {s.micros(), s.busy(), s.ours()});
    }

    /** The other processes' cores over {@code side}'s fork's window. */
    void forkEnded(String side, long... pids) {
        long[] w = windows.get(side);
        Sample s = sample(pids);
        String cores = "-";
        if (proc && s.micros() > w[0]) {
            double o = ((s.busy() - w[1]) - (s.ours() - w[2])) / ticksPerSecond / ((s.micros() - w[0]) / 1e6);
            cores = String.format(Locale.ROOT, "%.2f", Math.max(0, o));
        }
        windows.put(side, new long[] {w[0], s.micros()});
        others.put(side, cores);
    }

    /** One line per fork of pair {@code pair}, with the canary before and after it. */
    void recordPair(int pair, List<String> sides) throws Stop {
        for (String side : sides) {
            long[] w = windows.get(side);
            folder.append(MachineRecord.FILE, pair + "\t" + side + "\t" + w[0] + "\t" + w[1] + "\t" + others.get(side) + "\t"
                    + ms(canary.get(pair - 1)) + "\t" + ms(canary.get(pair)));
        }
    }

    static String ms(long micros) {
        return String.format(Locale.ROOT, "%d.%03d", micros / 1000, micros % 1000);
    }

    private Sample sample(long... pids) {
        java.time.Instant t = java.time.Instant.now();
        long now = t.getEpochSecond() * 1_000_000 + t.getNano() / 1_000;
        if (!proc) {
            return new Sample(now, 0, 0);
        }
        long busy = 0;
        long ours = 0;
        try {
            String[] f = Files.readAllLines(STAT, StandardCharsets.UTF_8).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            ours += ticks(ProcessHandle.current().pid());
            for (long pid : pids) {
                ours += ticks(pid);
            }
            for (long pid : alsoOurs) {
                ours += ticks(pid);
            }
        } catch (IOException | RuntimeException e) {
            return new Sample(now, 0, 0);
        }
        return new Sample(now, busy, ours);
    }

    /** utime, stime and the reaped children's (the fork JVMs) of one process, 0 once it is gone. */
    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"), StandardCharsets.UTF_8);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
