package dev.inferbench.input.data;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Seeded mutants of a valid input fed to a reader of files: each must be accepted or refused with a
 * {@link BenchException} of one non-blank line, whatever else is thrown (an OutOfMemoryError included) is an escape,
 * and a reader writes nothing: the mutants' folder ends holding only what the mutants wrote, and the working folder
 * what it held before. An escape names its seed, so that {@code writer.write(root, seed)} replays it.
 */
public final class FileFuzz {
    public static final int MUTANTS = 1000;

    /** Writes mutant {@code seed} under {@code root}, at a path of its own, and gives the path to read. */
    @FunctionalInterface
    public interface Writer {
        Path write(Path root, long seed) throws IOException;
    }

    @FunctionalInterface
    public interface Reader {
        void read(Path mutant) throws BenchException;
    }

    /** What the mutants came to: how many were fed and refused, and each one that broke the contract. */
    public record Outcome(int mutants, int refused, List<String> escapes) {
        public int accepted() {
            return mutants - refused - escapes.size();
        }

        /** For an assertion's description: the counts, so that a run shows how much was exercised. */
        public String summary(String what) {
            return mutants + " mutants of " + what + ": " + refused + " refused, " + accepted() + " accepted, "
                    + escapes.size() + " escaped";
        }
    }

    private FileFuzz() {
    }

    /**
     * {@code mutants} mutants, seeds 1 to {@code mutants}, each at a path of its own under {@code root}, kept until
     * the end: on ext4 a fresh file is much cheaper than one truncated and written again.
     */
    public static Outcome run(Path root, int mutants, Writer writer, Reader reader) throws IOException {
        Files.createDirectories(root);
        Path cwd = Path.of("").toAbsolutePath();
        List<Path> workingBefore = listing(cwd, false);
        Set<Path> written = new TreeSet<>();
        int refused = 0;
        List<String> escapes = new ArrayList<>();
        for (long seed = 1; seed <= mutants; seed++) {
            Path mutant = writer.write(root, seed);
            List<Path> own = listing(mutant, true);
            written.addAll(own);
            try {
                reader.read(mutant);
            } catch (BenchException e) {
                String m = e.getMessage();
                if (m == null || m.isBlank() || m.contains("\n") || m.contains("\r")) {
                    escapes.add("seed " + seed + ": a refusal that is not one line: '" + m + "'");
                } else {
                    refused++;
                }
            } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                escapes.add("seed " + seed + ": " + e);
            }
            if (!listing(mutant, true).equals(own)) {
                escapes.add("seed " + seed + ": the reader changed " + mutant + ": " + listing(mutant, true));
            }
        }
        List<Path> extra = listing(root, true).stream().filter(p -> !p.equals(root) && !written.contains(p)).toList();
        if (!extra.isEmpty() || !listing(cwd, false).equals(workingBefore)) {
            escapes.add("files written beside the mutants: " + extra + ", or in " + cwd);
        }
        return new Outcome(mutants, refused, escapes);
    }

    /** {@code path} and, for a folder, everything in it (or only its entries, when not {@code deep}), sorted. */
    private static List<Path> listing(Path path, boolean deep) throws IOException {
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> s = deep ? Files.walk(path) : Files.list(path)) {
            return s.sorted().toList();
        }
    }
}
