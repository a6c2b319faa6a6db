package dev.inferbench.model;

import dev.inferbench.AtomicFile;
import dev.inferbench.ByteUnits;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
        try {
            Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Graph graph = arch.build();
            AtomicFile.write(target, out -> new OnnxExporter(seed).write(graph, out));
            long millis = (System.nanoTime() - start) / 1_000_000;
            long bytes = Files.size(target);
            progress.printf(Locale.ROOT, "[inferbench] generated %s: %,d parameters, %s, in %.2f s%n",
                    arch.name(), graph.parameterCount(), size(bytes), millis / 1e3);
            return new Generated(target, graph.parameterCount(), bytes, millis);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot write zoo model '" + arch.name() + "' to " + target + ": " + e, e);
        }
    }

    public static String size(long bytes) {
        return ByteUnits.size(bytes, 1);
    }
}
