package dev.inferbench.bench.calibration;

import dev.inferbench.Numbers;
import dev.inferbench.BenchException;
import dev.inferbench.bench.PlainOrtLoop;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.generate.Generation;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.Sampler;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Ratio;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * {@code calibrate step-check MODEL [PROMPT_LEN] [OUTPUT_LEN] [ROUNDS]}: what GenerationBenchmark adds to ONNX Runtime's
 * Java binding per output token, on one decoder, in one JVM, with nothing of the machine's process-to-process spread
 * in the way. Each round runs one greedy request (batch 1, one intra-op thread) through the harness's own request
 * ({@link Generation#request}, on the decoder GenerationBenchmark opens) and one through {@link PlainOrtLoop}, the
 * plain loop on the binding alone that PlainOrtLoopBenchmark times, in alternating order, each on its own session of
 * the same file; TPOT as GenerationBenchmark defines it. Printed: both
 * TPOTs (medians of the rounds), harness / bare with its paired 99 % interval, and whether both chose the same tokens.
 *
 * <p>Exit 0: the interval lies below 1 + {@value #TOLERANCE_PERCENT} % (the harness adds less than that to the
 * binding's step); 1: it lies above, or the two loops chose different tokens; 3: it straddles (a noisy stretch; run
 * again or longer); 2: bad input.
 */
public final class StepCheck {
    static final int ROUNDS = 400;
    static final int PROMPT_LEN = 32;
    static final int OUTPUT_LEN = 64;
    static final double WARMUP_SECONDS = 5;
    static final double TOLERANCE_PERCENT = 1;
    static final double CONFIDENCE = 0.99;
    private static final String USAGE = "usage: java -jar target/benchmarks.jar calibrate step-check MODEL [PROMPT_LEN] [OUTPUT_LEN] [ROUNDS]"
            + " (e.g. ... calibrate step-check llama-tiny)";

    private StepCheck() {
    }

    /** The check on its arguments (MODEL [PROMPT_LEN] [OUTPUT_LEN] [ROUNDS]); its exit code. */
    public static int check(String[] args) throws Exception {
        if (args.length < 1 || args.length > 4) {
            System.err.println(USAGE);
            return 2;
        }
        try {
            int prompt = args.length > 1 ? whole("PROMPT_LEN", args[1], 1, "32") : PROMPT_LEN;
            int output = args.length > 2 ? whole("OUTPUT_LEN", args[2], 2, "64") : OUTPUT_LEN;
            int rounds = args.length > 3 ? whole("ROUNDS", args[3], 8, "400") : ROUNDS;
            return run(args[0], prompt, output, rounds);
        } catch (BenchException e) {
            System.err.println("inferbench: " + e.getMessage());
            return 2;
        }
    }

    /** {@code text} as a whole number of {@code least} or more, or one line that says what was expected. */
    static int whole(String name, String text, int least, String example) throws BenchException {
        return Numbers.wholeAtLeast(text, least, name, "e.g. " + example);
    }

    private static int run(String model, int promptLen, int outputLen, int rounds) throws Exception {
        CellSpec cell = CellSpec.of(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, "1", CellSpec.ENGINE, "ort",
                CellSpec.THREADS, "1"), BenchConfig.load());
        Path file = cell.modelFile();
        if (!Files.isRegularFile(file)) {
            throw new BenchException("model file " + file + " is missing; expected a decoder's .onnx file, or a zoo "
                    + "decoder made by a run first (java -jar target/benchmarks.jar GenerationBenchmark -p model="
                    + model + " -f 1 -i 1)");
        }
        GenerationSpec spec = new GenerationSpec(promptLen, outputLen);
        long[] prompt = spec.prompt(1, DecoderLayout.of(file).vocab(), cell.inputSeed());
        try (Decoder decoder = EngineKind.ORT.openDecoder(file, Device.CPU, EngineSettings.threads(1));
             PlainOrtLoop bare = new PlainOrtLoop(file, 1, 1, prompt, outputLen)) {
            Sampler sampler = spec.sampling().sampler(cell.inputSeed());
            DecodeState state = decoder.begin(1, sampler);
            try {
                Generation harness = new Generation(state, 1, prompt, spec, sampler);
                harness.request();
                long[] harnessTokens = harness.output();
                bare.request();
                long[] bareTokens = bare.output();
                int warm = 0;
                long until = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
                while (System.nanoTime() < until) {
                    harness.request();
                    bare.request();
                    warm++;
                }
                double[][] harnessMs = new double[rounds][1];
                double[][] bareMs = new double[rounds][1];
                for (int r = 0; r < rounds; r++) {
                    if (r % 2 == 0) {
                        harnessMs[r][0] = harness.request().tpotMs();
                        bare.request();
                        bareMs[r][0] = bare.tpotMs();
                    } else {
                        bare.request();
                        bareMs[r][0] = bare.tpotMs();
                        harnessMs[r][0] = harness.request().tpotMs();
                    }
                }
                return report(model, promptLen, outputLen, rounds, warm, harnessMs, bareMs,
                        Arrays.equals(harnessTokens, bareTokens));
            } finally {
                state.close();
            }
        }
    }

    private static int report(String model, int promptLen, int outputLen, int rounds, int warm, double[][] harnessMs,
                              double[][] bareMs, boolean sameTokens) {
        Interval ratio = Ratio.paired(bareMs, harnessMs, CONFIDENCE);
        System.out.printf(Locale.ROOT, "step check, %s batch 1 on ort, threads 1, prompt %d, output %d: %d rounds of "
                + "one request each way (order alternated), after %d warm-up rounds%n", model, promptLen, outputLen,
                rounds, warm);
        System.out.printf(Locale.ROOT, "  TPOT, the harness's request (GenerationBenchmark's): %.4f ms (median of "
                + "rounds)%n", AidCheck.median(harnessMs));
        System.out.printf(Locale.ROOT, "  TPOT, a bare loop on the same binding, same JVM:      %.4f ms%n",
                AidCheck.median(bareMs));
        System.out.printf(Locale.ROOT, "  harness / bare: %.4f [%.4f, %.4f] (%.0f %% interval, paired by round; "
                + "measured)%n", ratio.estimate(), ratio.lower(), ratio.upper(), CONFIDENCE * 100);
        System.out.printf(Locale.ROOT, "  tokens of the first request: %s%n", sameTokens ? "the same both ways"
                : "DIFFERENT: the two loops do not decode alike");
        double limit = 1 + TOLERANCE_PERCENT / 100;
        if (!sameTokens || ratio.lower() > limit) {
            System.out.printf(Locale.ROOT, "NOT within %.0f %%: %s%n", TOLERANCE_PERCENT, sameTokens
                    ? "the harness adds more than that to the binding's step" : "different tokens");
            return 1;
        }
        if (ratio.upper() <= limit) {
            System.out.printf(Locale.ROOT, "within %.0f %%: the harness adds less than that to the binding's step%n",
                    TOLERANCE_PERCENT);
            return 0;
        }
        System.out.printf(Locale.ROOT, "cannot tell: the interval straddles %.4f; run again or longer%n", limit);
        return 3;
    }
}
