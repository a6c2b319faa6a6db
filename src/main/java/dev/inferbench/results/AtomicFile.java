package dev.inferbench.results;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a file whole or not at all (a temp file beside it, then a rename), so that a reader, or a run killed
 * at any moment, never finds half of one. Every run-folder file that is rewritten goes through here.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /** Writes {@code bytes} to {@code target} whole; readable by all. */
    public static void write(Path target, byte[] bytes) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".part");
        try {
            Files.write(tmp, bytes);
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
        }
    }
}
