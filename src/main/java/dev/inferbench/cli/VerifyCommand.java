package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.verify.Tolerance;
import dev.inferbench.verify.Verification;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verify [NAME|FILE|TEST-SET-DIR ...] [--rtol R] [--atol A] [--out DIR]}: runs each model once on every
 * engine and device, prints the compatibility matrix as Markdown and writes verify.md and verify.json to DIR
 * (default results/verify-yyyyMMdd-HHmmss). Without models: the models of param.model. Exit 0 when everything that
 * could run agrees (or, with nothing to compare against, runs), 1 when outputs disagree or an engine that reads the
 * file failed, 2 for bad input. An engine that does not read the file's format is "not applicable", not a failure.
 * Here the arguments are parsed; {@link Verification} verifies and writes the matrix.
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
                An engine that does not read the file's format (libtorch and an ONNX file the zoo did not write) is
                "not applicable", with the reason: not a failure.
                Exit 0 when everything that could run agrees, 1 when outputs disagree or an engine that reads the file
                failed, 2 bad input.
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
                case "--rtol" -> rtol = number(a, FlagValue.of(args, ++i, a, "a number >= 0, e.g. --rtol 1e-3"));
                case "--atol" -> atol = number(a, FlagValue.of(args, ++i, a, "a number >= 0, e.g. --atol 1e-7"));
                case "--out" -> dir = Path.of(FlagValue.of(args, ++i, a, "a folder for verify.md and verify.json"));
                default -> {
                    if (a.startsWith("--")) {
                        throw new BenchException("unknown option '" + a + "' for verify; expected --rtol, --atol, --out");
                    }
                    models.add(a);
                }
            }
        }
        return Verification.run(config, models, rtol, atol, dir, out, err) ? ExitCode.OK : ExitCode.FAILED;
    }

    /** 1e-7 as "1E-7", 0.001 as "0.001" */
    private static String plain(double v) {
        return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toString();
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
