package dev.inferbench.bench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.bench.Callers;
import dev.inferbench.bench.InferenceBenchmark;
import dev.inferbench.plant.InjectedSlowdown;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Outputs;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.Ratio;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;

/**
 * {@code calibrate aid-check MODEL PERCENT [ROUNDS]}: holds the injected-slowdown aid ({@link InjectedSlowdown}) to its
 * label on one cell, in one JVM, with nothing of a comparison's fork-to-fork spread in the way. The cell (batch 1, one
 * intra-op thread, on ort) is called in blocks of equal length, three per round in every order in turn, for ROUNDS
 * rounds ({@value #ROUNDS} unless given) after a warm-up that runs all three: the aid on and the aid off through the
 * benchmark's own method ({@link InferenceBenchmark#call}), and the aid off through a copy of it that never sees an
 * extra call (compiled as a base fork's code is). Printed: the calls the aid made per measured call (counted: the
 * share it plants by construction), the time per measured call on / off through the same code (whether an extra call
 * costs what an ordinary one does) and on / off-as-a-base (what a comparison sees: that, and whatever the head's code
 * compiled around the extra calls adds), each with its paired 99 % interval, and whether the last lies within
 * {@value #TOLERANCE_POINTS} of a point of 1 + PERCENT / 100.
 *
 * <p>Exit 0: held to its label; 1: the interval lies outside the label's band (the aid plants something else);
 * 3: the interval is too wide to tell (a noisy stretch; run again); 2: bad input.
 */
public final class AidCheck {
    static final int ROUNDS = 1600;
    static final double BLOCK_MS = 25;
    static final double WARMUP_SECONDS = 5;
    static final double TOLERANCE_POINTS = 0.5;
    static final double CONFIDENCE = 0.99;
    private static final int OFF = 0;
    private static final int ON = 1;
    private static final int BASE = 2;
    /** Each round's order of the three blocks, every order in turn. */
    private static final int[][] ORDERS = {{OFF, ON, BASE}, {ON, BASE, OFF}, {BASE, OFF, ON}, {BASE, ON, OFF},
        {ON, OFF, BASE}, {OFF, BASE, ON}};

    private AidCheck() {
    }

    /** The check on its arguments (MODEL PERCENT [ROUNDS]); its exit code. */
    public static int check(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: java -jar target/benchmarks.jar calibrate aid-check MODEL PERCENT [ROUNDS] (e.g. ... calibrate aid-check"
                    + " mlp-tiny 3)");
            return 2;
        }
        try {
            double percent = percent(args[1]);
            return run(args[0], percent, args.length > 2 ? rounds(args[2]) : ROUNDS);
        } catch (BenchException e) {
            System.err.println("inferbench: " + e.getMessage());
            return 2;
        }
    }

    static double percent(String text) throws BenchException {
        double p = InjectedSlowdown.number(text);
        if (p > 0 && p <= 100) {
            return p;
        }
        throw new BenchException("PERCENT '" + text + "' is not a slowdown from 0 (exclusive) to 100; expected e.g. 3");
    }

    static int rounds(String text) throws BenchException {
        return StepCheck.whole("ROUNDS", text, 8, "4800");
    }

    private static int run(String model, double percent, int rounds) throws Exception {
        CellSpec spec = CellSpec.of(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, "1", CellSpec.ENGINE, "ort",
                CellSpec.THREADS, "1"), BenchConfig.load());
        if (!Files.isRegularFile(spec.modelFile())) {
            throw new BenchException("model file " + spec.modelFile() + " is missing; expected it made by a run of "
                    + "the cell first (java -jar target/benchmarks.jar -p model=" + model + " -f 1 -i 1)");
        }
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
        try (Callers callers = Callers.load(spec)) {
            Callers.Caller own = callers.next();
            InjectedSlowdown off = new InjectedSlowdown(0, System::nanoTime);
            InjectedSlowdown on = new InjectedSlowdown(percent, System::nanoTime);
            long warm = 0;
            long until = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
            while (System.nanoTime() < until) {
                block(own, off, bh, 100);
                block(own, on, bh, 100);
                blockAsBase(own, off, bh, 100);
                warm += 300;
            }
            long perBlock = Math.max(1, (long) (BLOCK_MS * 1e6 / (WARMUP_SECONDS * 1e9 / warm)));
            double[][] offNs = new double[rounds][1];
            double[][] onNs = new double[rounds][1];
            double[][] baseNs = new double[rounds][1];
            long onCalls = 0;
            for (int r = 0; r < rounds; r++) {
                for (int variant : ORDERS[r % ORDERS.length]) {
                    long t0 = System.nanoTime();
                    long made = variant == BASE ? blockAsBase(own, off, bh, perBlock)
                            : block(own, variant == ON ? on : off, bh, perBlock);
                    double ns = (double) (System.nanoTime() - t0) / perBlock;
                    switch (variant) {
                        case ON -> {
                            onNs[r][0] = ns;
                            onCalls += made;
                        }
                        case OFF -> offNs[r][0] = ns;
                        default -> baseNs[r][0] = ns;
                    }
                }
            }
            Interval ratio = Ratio.paired(baseNs, onNs, CONFIDENCE);
            Interval sameCode = Ratio.paired(offNs, onNs, CONFIDENCE);
            double label = 1 + percent / 100;
            double callShare = (double) onCalls / ((long) rounds * perBlock);
            System.out.printf(Locale.ROOT, "aid check, %s batch 1 on ort, threads 1, aid at %.3g %%: %d rounds of "
                    + "three blocks of %,d measured calls (orders rotated), after %,d warm-up calls%n", model, percent,
                    rounds, perBlock, warm);
            System.out.printf(Locale.ROOT, "  calls made per measured call with the aid on: %.5f (counted; the label "
                    + "says %.5f)%n", callShare, label);
            System.out.printf(Locale.ROOT, "  time per measured call, aid off: %.3f us (median of rounds %.3f us)%n",
                    ForkMeans.mean(ForkMeans.of(baseNs)) / 1e3, median(baseNs) / 1e3);
            System.out.printf(Locale.ROOT, "  on / off through the same compiled code: %.4f [%.4f, %.4f] (an extra "
                    + "call costs %.2f ordinary calls)%n", sameCode.estimate(), sameCode.lower(), sameCode.upper(),
                    (sameCode.estimate() - 1) / (callShare - 1));
            System.out.printf(Locale.ROOT, "  on / off compiled as a base fork's (never an extra call): %.4f "
                    + "[%.4f, %.4f] (%.0f %% intervals, paired by round; measured)%n", ratio.estimate(), ratio.lower(),
                    ratio.upper(), CONFIDENCE * 100);
            double band = TOLERANCE_POINTS / 100;
            if (ratio.lower() >= label - band && ratio.upper() <= label + band) {
                System.out.printf(Locale.ROOT, "held to its label: the interval lies within %.1f point of %.4f%n",
                        TOLERANCE_POINTS, label);
                return 0;
            }
            if (ratio.upper() < label - band || ratio.lower() > label + band) {
                System.out.printf(Locale.ROOT, "NOT held to its label: the interval lies outside %.4f ± %.1f point%n",
                        label, TOLERANCE_POINTS);
                return 1;
            }
            System.out.printf(Locale.ROOT, "cannot tell: the interval is wider than %.4f ± %.1f point; run again%n",
                    label, TOLERANCE_POINTS);
            return 3;
        }
    }

    private static long block(Callers.Caller own, InjectedSlowdown aid, Blackhole bh, long calls)
            throws BenchException {
        long made = 0;
        for (long i = 0; i < calls; i++) {
            made += InferenceBenchmark.call(own, aid, bh);
        }
        return made;
    }

    /**
     * {@link #block} and {@link InferenceBenchmark#call} again, word for word, called only with the aid off: compiled
     * from a profile that never saw an extra call, as a base fork's code is, where the methods above are compiled from
     * one that saw both, as a head fork's is.
     */
    private static long blockAsBase(Callers.Caller own, InjectedSlowdown aid, Blackhole bh, long calls)
            throws BenchException {
        long made = 0;
        for (long i = 0; i < calls; i++) {
            made += callAsBase(own, aid, bh);
        }
        return made;
    }

    private static int callAsBase(Callers.Caller own, InjectedSlowdown slowdown, Blackhole bh) throws BenchException {
        long start = slowdown.start();
        int calls = 1;
        for (int i = 0; i < calls; i++) {
            try (Outputs out = own.run()) {
                bh.consume(out);
            }
            if (i == 0) {
                calls += slowdown.extraCalls(start);
            }
        }
        return calls;
    }

    /** The median of the rounds, one figure each ({@code v[r][0]}); StepCheck reads its rounds the same way. */
    static double median(double[][] v) {
        return Percentiles.median(ForkMeans.of(v));
    }
}
