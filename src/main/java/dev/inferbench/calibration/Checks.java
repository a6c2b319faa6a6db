package dev.inferbench.calibration;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The instrument's checks that run in one JVM, each by its name after {@code calibrate}: the slowdown aid held to its
 * label ({@value #AID}), what {@code --tail}'s slow-call recorder adds to a call ({@value #TAIL}), the harness's step against a bare loop on ONNX Runtime's binding ({@value #STEP}), the heap
 * bytes of one call by site ({@value #ALLOC}), and the open loop's own path from a request's time to its call
 * ({@value #OPEN_LOOP_PATH}). Each runs in a JVM of its own started from this jar ({@value #MAIN}), its lines on this
 * console and its exit code the command's: the checks load ONNX Runtime, whose crash must cost the check and not the
 * launcher; they time code against code inside their JVM, which should hold nothing else; and the open loop's path is
 * by definition that of fresh JVMs, one per round and mode. Three more drive runs of this jar from the launcher, as a
 * user would start them: whether a cell's resident set settles ({@value #MEMORY_PLATEAU}, {@link MemoryPlateau}),
 * that a run killed with SIGKILL loses no finished fork ({@value #KILL_RESUME}, {@link KillResume}), and the harness's
 * TPOT against a loop outside Java ({@value #TPOT_CROSSCHECK}, {@link TpotCrosscheck}).
 */
public final class Checks {
    /**
     * The child JVM's entry point. Named rather than imported: it calls checks that sit with the benchmarks
     * (src/jmh), above this layer.
     */
    public static final String MAIN = "dev.inferbench.bench.calibration.CheckMain";
    public static final String AID = "aid-check";
    public static final String STEP = "step-check";
    public static final String TAIL = "tail-check";
    public static final String ALLOC = "alloc-per-call";
    public static final String OPEN_LOOP_PATH = "open-loop-path";
    public static final String MEMORY_PLATEAU = "memory-plateau";
    public static final String KILL_RESUME = "kill-resume";
    public static final String TPOT_CROSSCHECK = "tpot-crosscheck";
    /** Each check's arguments, in the order the help lists them. */
    public static final Map<String, String> ARGUMENTS = new LinkedHashMap<>();

    static {
        ARGUMENTS.put(AID, "MODEL PERCENT [ROUNDS=1600]");
        ARGUMENTS.put(STEP, "MODEL [PROMPT_LEN=32] [OUTPUT_LEN=64] [ROUNDS=400]");
        ARGUMENTS.put(TAIL, "MODEL [BATCH=1] [ROUNDS=600]");
        ARGUMENTS.put(ALLOC, "MODEL [BATCH=1] [ENGINE=ort]");
        ARGUMENTS.put(OPEN_LOOP_PATH, "[ROUNDS=2]");
        ARGUMENTS.put(MEMORY_PLATEAU, MemoryPlateau.ARGUMENTS);
        ARGUMENTS.put(KILL_RESUME, KillResume.ARGUMENTS);
        ARGUMENTS.put(TPOT_CROSSCHECK, TpotCrosscheck.ARGUMENTS);
    }

    private Checks() {
    }

    /** Whether {@code name} is one of the checks. */
    public static boolean isCheck(String name) {
        return ARGUMENTS.containsKey(name);
    }

    /**
     * Runs check {@code name} on {@code args} in a JVM of {@code jar} and waits for it.
     *
     * @return its exit code
     */
    public static int run(Path jar, String name, List<String> args) throws BenchException {
        return switch (name) {
            case ALLOC -> allocPerCall(jar, args);
            case OPEN_LOOP_PATH -> openLoopPath(jar, args);
            case MEMORY_PLATEAU -> MemoryPlateau.check(jar, args, Child.processes(), System.out);
            case KILL_RESUME -> KillResume.check(jar, args, Child.processes(), KillResume::sleep, workFolder(),
                    System.out);
            case TPOT_CROSSCHECK -> TpotCrosscheck.check(jar, args, System.out);
            default -> launch(jar, name, args);
        };
    }

    /** The bytes of one call, written to results/alloc/MODEL-bBATCH-ENGINE/. */
    private static int allocPerCall(Path jar, List<String> args) throws BenchException {
        if (args.isEmpty() || args.size() > 3) {
            throw new BenchException("calibrate " + ALLOC + " takes " + ARGUMENTS.get(ALLOC) + "; expected e.g. "
                    + "calibrate " + ALLOC + " mlp-tiny");
        }
        String batch = args.size() > 1 ? args.get(1) : "1";
        String engine = args.size() > 2 ? args.get(2) : "ort";
        Path out = Path.of("results", "alloc", args.get(0) + "-b" + batch + "-" + engine);
        return launch(jar, ALLOC, List.of(out.toString(), args.get(0), batch, engine));
    }

    /** ROUNDS rounds of a fresh JVM whose steps run cold, then one whose steps follow the open-loop warm-up. */
    private static int openLoopPath(Path jar, List<String> args) throws BenchException {
        String text = args.isEmpty() ? "2" : args.get(0);
        int rounds;
        try {
            rounds = args.size() > 1 ? 0 : Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            rounds = 0;
        }
        if (rounds < 1) {
            throw new BenchException("calibrate " + OPEN_LOOP_PATH + ": ROUNDS '" + String.join(" ", args)
                    + "' is not a whole number of 1 or more; expected e.g. 2");
        }
        for (int r = 1; r <= rounds; r++) {
            for (String mode : List.of("cold", "rehearsed")) {
                int code = launch(jar, OPEN_LOOP_PATH, List.of(mode));
                if (code != 0) {
                    return code;
                }
            }
        }
        return 0;
    }

    private static Path workFolder() throws BenchException {
        try {
            return Files.createTempDirectory("kill-resume.");
        } catch (IOException e) {
            throw new BenchException("cannot make a temporary folder (" + e.getMessage() + ")", e);
        }
    }

    private static int launch(Path jar, String name, List<String> args) throws BenchException {
        List<String> command = new ArrayList<>(List.of(CalibrationTable.javaBinary(), "-Dai.djl.offline=true", "-cp",
                jar.toString(), MAIN, name));
        command.addAll(args);
        try {
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw new BenchException("cannot start a JVM for " + name + " (" + e.getMessage() + "); expected the java"
                    + " of this JVM to run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while " + name + " ran", e);
        }
    }
}
