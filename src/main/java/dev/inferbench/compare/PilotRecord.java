package dev.inferbench.compare;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How many pairs of a comparison were its pilot ({@value #FILE} in the folder that holds the two run folders), for a
 * comparison whose number of pairs its first pairs chose (compare-commits {@code --precision}, Stein's two stages):
 * the paired intervals of {@code compare} take their spread from those pairs, whoever runs it and when. A comparison
 * with a fixed number of pairs has no such file.
 */
public final class PilotRecord {
    public static final String FILE = "pilot.txt";
    /** No pilot: intervals take their spread from every pair. */
    public static final int NONE = Integer.MAX_VALUE;
    private static final int LEAST = 3;

    private PilotRecord() {
    }

    /** Writes {@code pairs} as the pilot of the comparison in {@code folder}. */
    public static void write(Path folder, int pairs) throws IOException {
        AtomicFile.write(folder.resolve(FILE), (pairs + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The pilot of the comparison whose sides are {@code base} and {@code head}; {@link #NONE} where none is recorded. */
    public static int beside(Path base, Path head) throws BenchException {
        Optional<Path> a = file(base);
        Optional<Path> b = file(head);
        if (a.isEmpty() || b.isEmpty() || !a.get().equals(b.get())) {
            return NONE;
        }
        String text;
        try {
            text = Files.readString(a.get(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new BenchException("cannot read " + a.get() + ": " + e.getMessage(), e);
        }
        try {
            int pairs = Integer.parseInt(text);
            if (pairs >= LEAST) {
                return pairs;
            }
        } catch (NumberFormatException e) {
            // the message below says what was expected
        }
        throw new BenchException(a.get() + " holds '" + (text.length() > 40 ? text.substring(0, 40) + "..." : text)
                + "'; expected the pilot's number of pairs, a whole number of at least " + LEAST);
    }

    private static Optional<Path> file(Path run) {
        Path parent = run.toAbsolutePath().normalize().getParent();
        if (parent == null || !Files.isDirectory(run)) {
            return Optional.empty();
        }
        Path f = parent.resolve(FILE);
        return Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS) ? Optional.of(f) : Optional.empty();
    }
}
