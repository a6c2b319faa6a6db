package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.verify.Tolerance;
import dev.inferbench.verify.Verification;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code verify [NAME|FILE|TEST-SET-DIR ...]}: each model once on every engine and device, the compatibility matrix
 * as Markdown, also written as verify.md and verify.json. An engine that does not read the file's format is "not
 * applicable", not a failure. Here the arguments are read; {@link Verification} verifies and writes the matrix.
 */
final class VerifyCommand implements Subcommand {
    private static final Options OPTIONS = new Options("verify", "[NAME|FILE|TEST-SET-DIR ...]")
            .row("NAME|FILE|TEST-SET-DIR", "models (default: param.model), or an ONNX test-set folder with its outputs");
    private static final Options.Flag<Double> RTOL = OPTIONS.value("--rtol", "R", tolerance("--rtol 1e-3"),
            Tolerance.ONNX_BACKEND.rtol(), "relative tolerance (default " + plain(Tolerance.ONNX_BACKEND.rtol()) + ")");
    private static final Options.Flag<Double> ATOL = OPTIONS.value("--atol", "A", tolerance("--atol 1e-7"),
            Tolerance.ONNX_BACKEND.atol(), "absolute tolerance (default " + plain(Tolerance.ONNX_BACKEND.atol()) + ")");
    private static final Options.Flag<Path> OUT = OPTIONS.value("--out", "DIR",
            Options.FOLDER.expecting("a folder for verify.md and verify.json"), null,
            "where the matrix goes (default: results/verify-yyyyMMdd-HHmmss)");
    private static final Options.Flag<String[]> INPUTS = InputFlag.declare(OPTIONS, true);
    private static final Options.Flag<Path> CONFIG = ConfigFlag.declare(OPTIONS);

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": which models run and agree on which engine and device";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Runs each model once on every engine and device and prints which run and agree (a Markdown matrix),
                also written to DIR as verify.md and verify.json.
                """, """
                An engine that does not read the file's format (libtorch and an ONNX file the zoo did not write) is
                "not applicable", with the reason: not a failure.
                Exit 0 when everything that could run agrees, 1 when outputs disagree or an engine that reads the file
                failed, 2 bad input.
                """);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        BenchConfig config = ConfigFlag.load(p.get(CONFIG));
        InputFlag.Given inputs = InputFlag.read(p, INPUTS);
        return Verification.run(config, p.operands(), inputs.shapes(), inputs.values(), p.get(RTOL), p.get(ATOL),
                p.get(OUT), out, err) ? ExitCode.OK : ExitCode.FAILED;
    }

    /** 1e-7 as "1E-7", 0.001 as "0.001" */
    private static String plain(double v) {
        return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toString();
    }

    /** A tolerance: a number >= 0. */
    private static Options.Type<Double> tolerance(String example) {
        return new Options.Type<>("a number >= 0, e.g. " + example, (v, flag) -> {
            try {
                double d = Double.parseDouble(v);
                if (d >= 0) {
                    return d;
                }
            } catch (NumberFormatException ignored) {
                // reported below
            }
            throw new BenchException(flag + " '" + v + "' is not a number >= 0; expected e.g. " + example);
        });
    }
}
