package dev.inferbench.metrics;

import dev.inferbench.ByteUnits;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Disk I/O of the fork over each measured iteration, from Linux's /proc/self/io: {@value #READ} and {@value #WRITE}
 * (MiB/s), the bytes this process made the storage layer fetch and send (read_bytes, write_bytes: page-cache hits
 * and pipes do not count, so JMH's own socket to its parent is not I/O here). Recorded only where the fork did any:
 * a model that reads a memory-mapped file or a data set lazily, a leak into a log; absent on systems without the
 * file, and where nothing was read or written.
 */
public final class IoProfiler extends FigureProfiler {
    public static final String READ = "io.read";
    public static final String WRITE = "io.write";
    private static final Path PROC = Path.of("/proc/self/io");

    private long[] start;
    private long wallStart;

    public IoProfiler() {
        super("disk bytes read and written by the fork per second of each iteration (MiB/s), where not zero");
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        start = read(PROC);
        wallStart = System.nanoTime();
    }

    @Override
    protected void figures(Iteration it, Figures out) {
        long[] end = read(PROC);
        double seconds = (System.nanoTime() - wallStart) / 1e9;
        if (start == null || end == null || seconds <= 0) {
            return;
        }
        long read = end[0] - start[0];
        long written = end[1] - start[1];
        if (read > 0) {
            out.add(READ, ByteUnits.mib(read) / seconds, ByteUnits.MIB + "/s");
        }
        if (written > 0) {
            out.add(WRITE, ByteUnits.mib(written) / seconds, ByteUnits.MIB + "/s");
        }
    }

    /** read_bytes and write_bytes of a /proc/PID/io file; null where it is missing or unreadable. */
    static long[] read(Path file) {
        try {
            return parse(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static long[] parse(String io) {
        long readBytes = -1;
        long writeBytes = -1;
        for (String line : io.split("\n")) {
            if (line.startsWith("read_bytes:")) {
                readBytes = Long.parseLong(line.substring(11).trim());
            } else if (line.startsWith("write_bytes:")) {
                writeBytes = Long.parseLong(line.substring(12).trim());
            }
        }
        return readBytes < 0 || writeBytes < 0 ? null : new long[]{readBytes, writeBytes};
    }
}
