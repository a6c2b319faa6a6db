package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.verify.CompatibilityMatrix;
import dev.inferbench.verify.Target;
import dev.inferbench.verify.Tolerance;
import dev.inferbench.verify.EngineCheck;
import dev.inferbench.verify.Verifier;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verify [NAME|FILE|TEST-SET-DIR ...] [--rtol R] [--atol A] [--out DIR]}: runs each model once on every
 * engine and device, prints the compatibility matrix as Markdown and writes verify.md and verify.json to DIR
 * (default results/verify-yyyyMMdd-HHmmss). Without models: the models of param.model. Exit 0 when everything that
 * could run agrees (or, with nothing to compare against, runs), 1 when something disagrees or failed, 2 for bad input.
 */
final class VerifyCommand implements Subcommand {

    @Override
    public String summary() {
        return "verify [NAME|FILE|TEST-SET-DIR ...] [--rtol R] [--atol A] [--out DIR]: which models run and agree on"
                + " which engine and device";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                verify [NAME|FILE|TEST-SET-DIR ...] [--rtol R] [--atol A] [--out DIR]
                Runs each model once on every engine and device and prints which run and agree (a Markdown matrix),
                also written to DIR as verify.md and verify.json.
                  NAME|FILE|TEST-SET-DIR   models (default: param.model), or an ONNX test-set folder with its outputs
                  --rtol R                 relative tolerance (default %s)
                  --atol A                 absolute tolerance (default %s)
                  --out DIR                where the matrix goes (default: results/verify-yyyyMMdd-HHmmss)
                Exit 0 when everything that could run agrees, 1 when something disagrees or failed, 2 bad input.
                """.formatted(plain(Tolerance.ONNX_BACKEND.rtol()), plain(Tolerance.ONNX_BACKEND.atol()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        BenchConfig config = BenchConfig.load();
        double rtol = Tolerance.ONNX_BACKEND.rtol();
        double atol = Tolerance.ONNX_BACKEND.atol();
        Path dir = null;
        List<String> models = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--rtol" -> rtol = number(a, value(args, ++i, a));
                case "--atol" -> atol = number(a, value(args, ++i, a));
                case "--out" -> dir = Path.of(value(args, ++i, a));
                default -> {
                    if (a.startsWith("--")) {
                        throw new BenchException("unknown option '" + a + "' for verify; expected --rtol, --atol, --out");
                    }
                    models.add(a);
                }
            }
        }
        if (models.isEmpty()) {
            models.addAll(config.defaultParam("model"));
        }
        List<Target> targets = new ArrayList<>();
        for (String m : models) {
            targets.add(Target.resolve(m, config, err));
        }
        Tolerance tolerance = new Tolerance(rtol, atol);
        Verifier verifier = new Verifier(config, tolerance, config.seed("input"));
        List<EngineCheck> checks = new ArrayList<>();
        for (Target t : targets) {
            err.println("[inferbench] verifying " + t.name() + " (" + t.file() + ") on " + t.inputsLabel());
            checks.addAll(verifier.verify(t));
        }
        CompatibilityMatrix matrix = new CompatibilityMatrix(checks, tolerance);
        matrix.writeMarkdown(out);
        write(matrix, dir != null ? dir : Path.of(config.get("run.resultsDir").orElse("results"),
                "verify-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))), out);
        return matrix.allAgree() ? Main.OK : Main.CELLS_FAILED;
    }

    private static void write(CompatibilityMatrix matrix, Path dir, PrintStream out) throws BenchException {
        try {
            Files.createDirectories(dir);
            try (PrintStream md = new PrintStream(Files.newOutputStream(dir.resolve("verify.md")), false, "UTF-8")) {
                matrix.writeMarkdown(md);
            }
            try (OutputStream json = new BufferedOutputStream(Files.newOutputStream(dir.resolve("verify.json")))) {
                matrix.writeJson(json);
            }
        } catch (IOException e) {
            throw new BenchException("cannot write the compatibility matrix to " + dir + ": " + e.getMessage(), e);
        }
        out.println("inferbench: matrix also in " + dir.resolve("verify.md") + " and " + dir.resolve("verify.json"));
    }

    /** 1e-7 as "1E-7", 0.001 as "0.001" */
    private static String plain(double v) {
        return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toString();
    }

    private static String value(List<String> args, int i, String option) throws BenchException {
        if (i >= args.size()) {
            throw new BenchException("option " + option + " needs a value");
        }
        return args.get(i);
    }

    private static double number(String option, String v) throws BenchException {
        try {
            double d = Double.parseDouble(v);
            if (d >= 0) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException(option + " '" + v + "' is not a number >= 0; expected e.g. " + option + " 1e-3");
    }
}
