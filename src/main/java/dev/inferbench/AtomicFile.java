package dev.inferbench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a file whole or not at all (a temp file beside it, then a rename), so that a reader, or a run killed
 * at any moment, never finds half of one; and never through a link: a target or a folder that is a symbolic link
 * is refused, so that a file written into a received folder cannot land outside it. Every file inferbench writes
 * into a run folder, a report folder or a comparison's folder goes through here.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /** What writes a file's content to a stream, which it does not close. */
    @FunctionalInterface
    public interface Body<E extends Exception> {
        void write(OutputStream out) throws IOException, E;
    }

    /** What writes a file's content to a path it is given (a library that only takes a file name). */
    @FunctionalInterface
    public interface PathBody<E extends Exception> {
        void write(Path file) throws IOException, E;
    }

    /** Writes {@code bytes} to {@code target} whole; readable by all. */
    public static void write(Path target, byte[] bytes) throws IOException {
        write(target, out -> out.write(bytes));
    }

    /** Writes what {@code body} writes to {@code target} whole; readable by all. */
    public static <E extends Exception> void write(Path target, Body<E> body) throws IOException, E {
        AtomicFile.<E>writeVia(target, tmp -> {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp))) {
                body.write(out);
            }
        });
    }

    /**
     * Lets {@code body} write a file of {@code target}'s name in a temp folder beside it, then puts it in place whole
     * (the same name: some libraries add an extension to a name that lacks it).
     */
    public static <E extends Exception> void writeVia(Path target, PathBody<E> body) throws IOException, E {
        Path parent = target.toAbsolutePath().getParent();
        refuseLink(target);
        refuseLink(parent);
        Path tmpDir = Files.createTempDirectory(parent, "." + target.getFileName() + ".");
        Path tmp = tmpDir.resolve(target.getFileName().toString());
        try {
            body.write(tmp);
            // temp files are owner-only; results are shared like any file the user writes
            if (Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (NoSuchFileException ignored) {
                // moved into place
            }
            Files.deleteIfExists(tmpDir);
        }
    }

    /**
     * A log or record that grows as it is written (a launcher's output, a comparison's machine record), so it cannot
     * be put in place whole: opened to append (or from empty), and never through a link.
     */
    public static OutputStream log(Path target, boolean append) throws IOException {
        refuseLink(target.toAbsolutePath().getParent());
        return Files.newOutputStream(target, java.nio.file.LinkOption.NOFOLLOW_LINKS,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
                append ? java.nio.file.StandardOpenOption.APPEND : java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** One line at the end of {@link #log}. */
    public static void appendLine(Path target, String line) throws IOException {
        try (OutputStream out = log(target, true)) {
            out.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** Refuses {@code p} where it is a link: what a child process writes there is written through no link either. */
    public static void refuseLink(Path p) throws FileSystemException {
        if (p != null && Files.isSymbolicLink(p)) {
            throw new FileSystemException(p.toString(), null, "a symbolic link; inferbench writes no file through one");
        }
    }
}
