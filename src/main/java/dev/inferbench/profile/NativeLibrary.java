package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * A native library shipped inside a jar on the classpath, kept on disk in the user's cache so that it outlives the
 * process: async-profiler must be loaded from a file that stays (its own loader deletes its copy), and ONNX Runtime's
 * library must stay for the profiler to name its frames. Extracted once, atomically (temp file + rename), and
 * checked against the jar's bytes by SHA-256 every time; a damaged or different cached copy is replaced.
 */
public final class NativeLibrary {
    private NativeLibrary() {
    }

    /** {@code linux-x64}, {@code linux-arm64}: the folder name both async-profiler's and ORT's jars use. */
    public static String platform() throws BenchException {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "x64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        };
        if (!os.contains("linux") || !(cpu.equals("x64") || cpu.equals("arm64"))) {
            throw new BenchException("no bundled profiler library for " + os + "/" + arch
                    + "; expected linux on x86_64 or aarch64 (or give -prof async:libPath=... yourself)");
        }
        return "linux-" + cpu;
    }

    /** The user's cache for inferbench: $XDG_CACHE_HOME/inferbench or ~/.cache/inferbench. */
    public static Path cacheRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("inferbench");
    }

    /**
     * The library at {@code resource} in the classpath, as a file under {@code cacheDir}.
     *
     * @return the path of the kept copy
     */
    public static Path extract(String resource, Path cacheDir) throws BenchException {
        return keep(resource, read(resource), cacheDir);
    }

    /**
     * Libraries that load together (ONNX Runtime and its JNI binding), kept in a folder of their own under
     * {@code parent} named by their bytes: two builds that bundle different versions (an engine upgrade compared
     * side by side, forks of both running in turns) each load their own pair, never the other's.
     *
     * @return the folder that holds them
     */
    public static Path extractTogether(List<String> resources, Path parent) throws BenchException {
        List<byte[]> contents = new ArrayList<>();
        MessageDigest digest = digest();
        for (String resource : resources) {
            byte[] bytes = read(resource);
            contents.add(bytes);
            digest.update(bytes);
        }
        Path dir = parent.resolve(HexFormat.of().formatHex(digest.digest()).substring(0, 16));
        for (int i = 0; i < resources.size(); i++) {
            keep(resources.get(i), contents.get(i), dir);
        }
        return dir;
    }

    private static byte[] read(String resource) throws BenchException {
        try (InputStream in = NativeLibrary.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new BenchException("the jar has no " + resource + "; expected it from the bundled library's jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new BenchException("cannot read " + resource + " from the jar: " + e.getMessage(), e);
        }
    }

    private static Path keep(String resource, byte[] bytes, Path cacheDir) throws BenchException {
        Path target = cacheDir.resolve(Path.of(resource).getFileName().toString());
        try {
            if (Files.isRegularFile(target) && sha256(Files.readAllBytes(target)).equals(sha256(bytes))) {
                return target;
            }
            Files.createDirectories(cacheDir);
            AtomicFile.write(target, bytes);
            return target;
        } catch (IOException e) {
            throw new BenchException("cannot keep " + resource + " in " + cacheDir + ": " + e.getMessage()
                    + "; expected a writable cache folder (set XDG_CACHE_HOME)", e);
        }
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
