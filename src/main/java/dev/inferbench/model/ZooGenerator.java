package dev.inferbench.model;

import dev.inferbench.ByteUnits;

import dev.inferbench.BenchException;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * Writes zoo models to disk. The file appears only when complete (temp file in the same folder, then rename), so a
 * run killed half-way never leaves a truncated model that a later run would load.
 */
public final class ZooGenerator {

    /** What was generated, for the progress line and for tests. */
    public record Generated(Path file, long parameters, long bytes, long millis) {
    }

    private final long seed;
    private final PrintStream progress;

    public ZooGenerator(long seed, PrintStream progress) {
        this.seed = seed;
        this.progress = progress;
    }

    public Generated generate(Architecture arch, Path target) throws BenchException {
        long start = System.nanoTime();
        progress.printf(Locale.ROOT, "[inferbench] generating zoo model %s -> %s ...%n", arch.name(), target);
        Path tmp = null;
        try {
            Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Graph graph = arch.build();
            tmp = Files.createTempFile(dir, "." + target.getFileName(), ".part");
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
                new OnnxExporter(seed).write(graph, out);
            }
            readableByAll(tmp);
            moveIntoPlace(tmp, target);
            long millis = (System.nanoTime() - start) / 1_000_000;
            long bytes = Files.size(target);
            progress.printf(Locale.ROOT, "[inferbench] generated %s: %,d parameters, %s, in %.2f s%n",
                    arch.name(), graph.parameterCount(), size(bytes), millis / 1e3);
            return new Generated(target, graph.parameterCount(), bytes, millis);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot write zoo model '" + arch.name() + "' to " + target + ": " + e, e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a stray .part file is harmless: it is never read as a model
                }
            }
        }
    }

    public static String size(long bytes) {
        return ByteUnits.size(bytes, 1);
    }

    /** Temp files are created owner-only; a model is a shared artefact like any other file the user writes. */
    /** Read permission for group and others, where the file system has POSIX permissions. */
    public static void readableByAll(Path file) throws IOException {
        if (Files.getFileStore(file).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    private static void moveIntoPlace(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
