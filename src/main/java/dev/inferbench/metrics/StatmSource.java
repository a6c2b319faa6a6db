package dev.inferbench.metrics;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The resident set from /proc/self/statm (its second field, in pages), read through one open channel into one direct
 * buffer: no allocation per reading, so that a sampler running beside the measured calls adds nothing to the
 * allocation the GC profiler counts per call. Where the file cannot be opened (not Linux) every reading is -1.
 */
final class StatmSource implements RssSampler.Source {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(128);
    private final long pageKb;

    private StatmSource(FileChannel channel, long pageKb) {
        this.channel = channel;
        this.pageKb = pageKb;
    }

    static RssSampler.Source open() {
        try {
            return new StatmSource(FileChannel.open(Path.of("/proc/self/statm"), StandardOpenOption.READ),
                    pageSize() / 1024);
        } catch (IOException | RuntimeException | ReflectiveOperationException e) {
            return () -> -1;
        }
    }

    @Override
    public long rssKb() {
        try {
            buffer.clear();
            int n = channel.read(buffer, 0);
            int i = 0;
            while (i < n && buffer.get(i) != ' ') {
                i++;
            }
            long pages = 0;
            boolean digits = false;
            for (i++; i < n && buffer.get(i) >= '0' && buffer.get(i) <= '9'; i++) {
                pages = pages * 10 + buffer.get(i) - '0';
                digits = true;
            }
            return digits ? pages * pageKb : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    private static long pageSize() throws ReflectiveOperationException {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return ((sun.misc.Unsafe) f.get(null)).pageSize();
    }
}
