package dev.inferbench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The resident set's peak (VmHWM) over a stretch of the fork chosen by the caller: writing "5" to
 * /proc/self/clear_refs sets the kernel's high-water mark back to the current resident set (Linux 4.0 and later), so
 * VmHWM read later is the peak since then, every page counted by the kernel, nothing sampled. The fork's whole peak is
 * kept across resets: before each reset the mark reached so far is folded into {@link #forkPeakKb}. Where the file
 * cannot be written (not Linux, a /proc mounted read-only) {@link #reset} says so and the caller reports no peak for
 * the stretch rather than the fork's peak under the stretch's name.
 */
final class ResidentPeak {
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
    /** The highest VmHWM seen before the last reset, kB; -1 before any. */
    private static long earlierKb = -1;

    private ResidentPeak() {
    }

    /** Starts a new stretch: VmHWM from now on is the peak since this call. False where it could not be reset. */
    static synchronized boolean reset() {
        long hwm = ProcStatus.read().peakRssKb();
        if (hwm < 0) {
            return false;
        }
        earlierKb = Math.max(earlierKb, hwm);
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The fork's peak so far (kB) given VmHWM read now: the larger of it and every mark reached before a reset. */
    static synchronized long forkPeakKb(long hwmNowKb) {
        return hwmNowKb < 0 ? -1 : Math.max(earlierKb, hwmNowKb);
    }

    /** Forgets the earlier marks (tests run several forks' worth in one JVM). */
    static synchronized void clear() {
        earlierKb = -1;
    }
}
