package dev.inferbench.metrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's resident memory from Linux's /proc/self/status: VmRSS (now) and VmHWM (the peak, "high water
 * mark"), in kB. Both -1 where the file does not exist (not Linux) or cannot be read.
 */
record ProcStatus(long rssKb, long peakRssKb) {
    private static final Path STATUS = Path.of("/proc/self/status");

    static ProcStatus read() {
        try {
            return parse(Files.readString(STATUS));
        } catch (IOException | RuntimeException e) {
            return new ProcStatus(-1, -1);
        }
    }

    static ProcStatus parse(String status) {
        long rss = -1;
        long peak = -1;
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                rss = kb(line);
            } else if (line.startsWith("VmHWM:")) {
                peak = kb(line);
            }
        }
        return new ProcStatus(rss, peak);
    }

    /** "VmHWM:\t  123456 kB" to 123456. */
    private static long kb(String line) {
        String[] parts = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
        return Long.parseLong(parts[0]);
    }
}
