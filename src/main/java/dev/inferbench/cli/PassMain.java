package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.prepare.DataCheck;
import dev.inferbench.prepare.MatrixCheck;
import dev.inferbench.prepare.VariantStep;
import dev.inferbench.profile.OpProfilePass;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.run.ChildJvm;

import java.nio.file.Path;

/**
 * The JVM of one step of native code run for the launcher ({@link ChildJvm}): reads the step from stdin, runs it
 * with its lines on stdout, and exits 0 when it ended, {@value ChildJvm#REFUSED} with one line when it refused
 * (bad data), and as the JVM does when the engine crashes it.
 */
public final class PassMain {
    private PassMain() {
    }

    public static void main(String[] args) {
        int code;
        try {
            run(ChildJvm.read(System.in));
            code = 0;
        } catch (BenchException e) {
            System.out.println("inferbench: " + String.valueOf(e.getMessage()).strip().lines().findFirst().orElse(""));
            code = ChildJvm.REFUSED;
        } catch (Exception | Error e) {
            System.out.println("inferbench: " + e);
            code = ExitCode.INTERNAL_ERROR;
        }
        System.out.flush();
        System.exit(code);
    }

    private static void run(ChildJvm.Request r) throws BenchException {
        BenchConfig config = r.config() == null ? BenchConfig.builtIn() : BenchConfig.fromFile(Path.of(r.config()));
        MatrixCheck.startEngines(r.cells(), config);
        Path dir = Path.of(r.dir());
        switch (r.step()) {
            case OperatorPass.STEP -> OperatorPass.run(r.cells(), config, dir, System.out);
            case OpProfilePass.STEP -> OpProfilePass.run(r.cells(), config, dir, System.out);
            case DataCheck.STEP -> DataCheck.check(r.cells(), config);
            case VariantStep.STEP -> VariantStep.make(r.cells(), config, System.out);
            default -> throw new BenchException("unknown step '" + r.step() + "'; expected one of: " + OperatorPass.STEP
                    + ", " + OpProfilePass.STEP + ", " + DataCheck.STEP + ", " + VariantStep.STEP);
        }
    }
}
