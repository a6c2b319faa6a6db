package dev.inferbench.verify;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.input.InputValues;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Each model run once on every engine and device ({@link Verifier}), the compatibility matrix printed as Markdown
 * and written to a folder as verify.md and verify.json (default results/verify-yyyyMMdd-HHmmss). Without models:
 * the models of param.model.
 */
public final class Verification {

    private Verification() {
    }

    /**
     * Verifies {@code models} (names, ONNX files or test-set folders) and prints the matrix; progress goes to
     * {@code err}.
     *
     * @param dir where the matrix goes, null for a new folder under run.resultsDir
     * @return whether everything that could run agrees (or, with nothing to compare against, runs)
     */
    public static boolean run(BenchConfig config, List<String> models, Map<String, long[]> shapes,
                              InputValues values, double rtol, double atol, Path dir, PrintStream out, PrintStream err)
            throws BenchException {
        models = new ArrayList<>(models);
        if (models.isEmpty()) {
            models.addAll(config.defaultParam("model"));
        }
        List<Target> targets = new ArrayList<>();
        for (String m : models) {
            targets.add(Target.resolve(m, config, err).withShapes(shapes));
        }
        Tolerance tolerance = new Tolerance(rtol, atol);
        Verifier verifier = new Verifier(config, tolerance, config.seed("input"), values);
        List<EngineCheck> checks = new ArrayList<>();
        for (Target t : targets) {
            err.println("[inferbench] verifying " + t.name() + " (" + t.file() + ") on " + t.inputsLabel());
            checks.addAll(verifier.verify(t));
        }
        CompatibilityMatrix matrix = new CompatibilityMatrix(checks, tolerance);
        matrix.writeMarkdown(out);
        write(matrix, dir != null ? dir : Path.of(config.get("run.resultsDir").orElse("results"),
                "verify-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))), out);
        return matrix.allAgree();
    }

    private static void write(CompatibilityMatrix matrix, Path dir, PrintStream out) throws BenchException {
        try {
            Files.createDirectories(dir);
            AtomicFile.write(dir.resolve("verify.md"), o -> {
                PrintStream md = new PrintStream(o, false, StandardCharsets.UTF_8);
                matrix.writeMarkdown(md);
                md.flush();
            });
            AtomicFile.write(dir.resolve("verify.json"), matrix::writeJson);
        } catch (IOException e) {
            throw new BenchException("cannot write the compatibility matrix to " + dir + ": " + e.getMessage(), e);
        }
        out.println("inferbench: matrix also in " + dir.resolve("verify.md") + " and " + dir.resolve("verify.json"));
    }
}
