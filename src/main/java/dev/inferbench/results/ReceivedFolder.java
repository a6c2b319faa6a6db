package dev.inferbench.results;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.stream.Stream;

/**
 * A run folder read as data. It may come from elsewhere (a CI shard, an upload), so a link inside it is refused
 * before anything is read or written: followed, a link would pull a file from outside into what is merged and
 * uploaded ({@code forks/x -> ~/.ssh/id_rsa}), or turn a report written into the folder into a write elsewhere
 * ({@code report -> /etc}). The folder's own path may be a link (the user chose it); nothing below it may.
 */
public final class ReceivedFolder {
    /** Deeper than any folder a run makes; a deeper tree is not a run folder. */
    private static final int MAX_DEPTH = 16;

    private ReceivedFolder() {
    }

    public static void refuseLinks(Path dir) throws BenchException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir, MAX_DEPTH)) {
            for (Iterator<Path> it = s.iterator(); it.hasNext(); ) {
                Path p = it.next();
                if (!p.equals(dir) && Files.isSymbolicLink(p)) {
                    throw new BenchException(p + " is a symbolic link; a run folder holds plain files and folders"
                            + " only (links are never followed: remove it, or copy what it points to into the folder)");
                }
                if (!p.equals(dir) && !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                        && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BenchException(p + " is neither a file nor a folder (a device, a pipe or a socket);"
                            + " a run folder holds plain files and folders only");
                }
            }
        } catch (IOException | UncheckedIOException e) {
            throw new BenchException("cannot read run folder " + dir + ": " + e.getMessage()
                    + "; expected a readable folder", e);
        }
    }
}
