package dev.inferbench.run;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One process at a time in a run folder: two resumes of one folder (or a resume while the run still runs) would
 * measure the same fork numbers and overwrite forks already landed, and two new runs on one {@code --run-dir}
 * would mix their plans. The lock is the operating system's on {@code .lock} in the folder, held until the process
 * ends; a process killed with {@code kill -9} loses it with its file descriptors, so a later run takes it over
 * with no stale file to clean. The file holds the holder's pid, for the refusal's message.
 */
final class FolderLock {
    static final String FILE = ".lock";
    /** The folders this JVM holds: a process may open its own folder again (a merge reading what it made). */
    private static final Map<Path, FileLock> HELD = new ConcurrentHashMap<>();

    private FolderLock() {
    }

    static void take(Path dir) throws BenchException {
        Path key = dir.toAbsolutePath().normalize();
        if (HELD.containsKey(key)) {
            return;
        }
        Path file = dir.resolve(FILE);
        try {
            if (Files.isSymbolicLink(file)) {
                throw new BenchException(file + " is a symbolic link; expected the run folder's own lock file");
            }
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                String holder = holder(channel);
                channel.close();
                throw new BenchException("run folder " + dir + " is in use by another inferbench process"
                        + holder + "; expected it to end first (a run killed with kill -9 frees it at once)");
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            HELD.put(key, lock);
        } catch (IOException e) {
            throw new BenchException("cannot lock run folder " + dir + ": " + OneLine.of(e)
                    + "; expected a writable folder", e);
        }
    }

    private static String holder(FileChannel channel) {
        try {
            ByteBuffer b = ByteBuffer.allocate(32);
            channel.read(b, 0);
            String pid = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
            return pid.matches("\\d{1,10}") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }
}
