package dev.inferbench.profile;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Native libraries shipped inside jars, kept on disk under a persistent cache so that profilers can resolve their
 * symbols and JMH's {@code -prof async} can load them by path. A library is written once (temp file + atomic
 * rename, so concurrent runs never see half a file); later runs reuse it when its SHA-256 matches the bundled
 * bytes, and rewrite it when it does not (a truncated or edited copy is repaired, never loaded).
 */
public final class NativeLibraryCache {
    private final Path root;
    private final ClassLoader loader;

    /** @param root e.g. {@code ~/.cache/inferbench}; {@code loader} finds the bundled libraries */
    public NativeLibraryCache(Path root, ClassLoader loader) {
        this.root = root;
        this.loader = loader;
    }

    /** The user's cache: {@code $XDG_CACHE_HOME/inferbench} or {@code ~/.cache/inferbench}. */
    public static Path defaultRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("inferbench");
    }

    /**
     * The cached copy of {@code resource}, written or repaired as needed.
     *
     * @param resource the library's name in the jar, e.g. {@code linux-x64/libasyncProfiler.so}
     * @param relative where it lives under the cache root, e.g. {@code async-profiler/4.6/linux-x64/libasyncProfiler.so}
     */
    public Path extract(String resource, String relative) throws BenchException {
        byte[] bundled = read(resource);
        return keep(resource, bundled, sha256(bundled), root.resolve(relative));
    }

    /**
     * The cached copy of {@code resource} under {@code folder/<first 12 hex digits of its SHA-256>/}, for libraries
     * whose jar does not say its version once shaded.
     */
    public Path extractByDigest(String resource, String folder) throws BenchException {
        byte[] bundled = read(resource);
        String digest = sha256(bundled);
        String file = resource.substring(resource.lastIndexOf('/') + 1);
        return keep(resource, bundled, digest, root.resolve(folder).resolve(digest.substring(0, 12)).resolve(file));
    }

    private static Path keep(String resource, byte[] bundled, String digest, Path target) throws BenchException {
        try {
            if (Files.isRegularFile(target) && digest.equals(sha256(Files.readAllBytes(target)))) {
                return target;
            }
            Files.createDirectories(target.getParent());
            Path temp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
            try {
                Files.write(temp, bundled);
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
            return target;
        } catch (IOException e) {
            throw new BenchException("cannot keep native library " + resource + " in " + target.getParent() + ": "
                    + e.getMessage() + "; expected a writable cache folder (set XDG_CACHE_HOME to move it)", e);
        }
    }

    private byte[] read(String resource) throws BenchException {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new BenchException("native library " + resource + " is not in the jar; expected it beside "
                        + "the classes of its Maven artifact");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new BenchException("cannot read " + resource + " from the jar: " + e.getMessage(), e);
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
