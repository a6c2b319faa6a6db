package dev.inferbench.bench.calibration;

import dev.inferbench.calibration.AllocPerCall;
import dev.inferbench.calibration.Checks;
import dev.inferbench.calibration.OpenLoopPath;

import java.util.Arrays;

/**
 * The JVM of one of the instrument's one-JVM checks, started by {@code calibrate CHECK} ({@link Checks}): the check's
 * name, then its arguments; it exits with the check's code. Here, beside the benchmarks, because two of the checks
 * call a benchmark's own code ({@code InferenceBenchmark.call}, {@code PlainOrtLoop}).
 */
public final class CheckMain {
    private CheckMain() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length == 0 ? "" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        int code = switch (name) {
            case Checks.AID -> AidCheck.check(rest);
            case Checks.STEP -> StepCheck.check(rest);
            case Checks.TAIL -> TailCheck.check(rest);
            case Checks.ALLOC -> AllocPerCall.check(rest);
            case Checks.OPEN_LOOP_PATH -> OpenLoopPath.check(rest);
            default -> {
                System.err.println("inferbench: unknown check '" + name + "'; expected one of: "
                        + String.join(", ", Checks.ARGUMENTS.keySet()));
                yield 2;
            }
        };
        System.out.flush();
        System.exit(code);
    }
}
