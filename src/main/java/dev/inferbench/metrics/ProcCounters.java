package dev.inferbench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Linux counts for the machine and this process, for telling a busy machine from a slow build: all CPUs' busy
 * time from /proc/stat (user, nice, system, irq, softirq and steal: the hypervisor's share on a VM counts as others'),
 * this process's CPU time from /proc/self/stat, and its involuntary context switches from /proc/self/status. Times
 * in clock ticks (USER_HZ, 100 on Linux); -1 where a file is missing (not Linux) or unreadable.
 */
record ProcCounters(long machineBusyTicks, long processTicks, long involuntarySwitches, long nanoTime) {
    /** Linux's USER_HZ: the unit of /proc's times, fixed at 100 for user space. */
    static final double TICKS_PER_SECOND = 100;

    static ProcCounters read() {
        return new ProcCounters(machineBusy(read("/proc/stat")), processTicks(read("/proc/self/stat")),
                involuntary(read("/proc/self/status")), System.nanoTime());
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** "cpu  user nice system idle iowait irq softirq steal ...": every field but idle and iowait. */
    static long machineBusy(String stat) {
        for (String line : stat.split("\n")) {
            if (line.startsWith("cpu ")) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 9) {
                    return -1;
                }
                long busy = 0;
                for (int i : new int[]{1, 2, 3, 6, 7, 8}) {
                    busy += Long.parseLong(f[i]);
                }
                return busy;
            }
        }
        return -1;
    }

    /** utime + stime (fields 14 and 15), counted after the command name, which may hold spaces. */
    static long processTicks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] f = stat.substring(close + 2).trim().split("\\s+");
        // f[0] is field 3 (state): utime is field 14, f[11]; stime f[12]
        return f.length < 13 ? -1 : Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    static long involuntary(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return -1;
    }

    /** Seconds of wall time from {@code earlier} to this reading. */
    double secondsSince(ProcCounters earlier) {
        return (nanoTime - earlier.nanoTime) / 1e9;
    }

    /** Cores kept busy by everything else on the machine (other processes, the hypervisor) since {@code earlier}. */
    double othersCores(ProcCounters earlier) {
        if (machineBusyTicks < 0 || earlier.machineBusyTicks < 0 || processTicks < 0 || earlier.processTicks < 0) {
            return Double.NaN;
        }
        long others = (machineBusyTicks - earlier.machineBusyTicks) - (processTicks - earlier.processTicks);
        return Math.max(0, others) / TICKS_PER_SECOND / secondsSince(earlier);
    }

    /** Cores this process kept busy since {@code earlier}. */
    double processCores(ProcCounters earlier) {
        return processTicks < 0 || earlier.processTicks < 0 ? Double.NaN
                : (processTicks - earlier.processTicks) / TICKS_PER_SECOND / secondsSince(earlier);
    }

    /** Involuntary context switches per second since {@code earlier}: the scheduler taking the CPU away. */
    double involuntaryPerSecond(ProcCounters earlier) {
        return involuntarySwitches < 0 || earlier.involuntarySwitches < 0 ? Double.NaN
                : (involuntarySwitches - earlier.involuntarySwitches) / secondsSince(earlier);
    }
}
