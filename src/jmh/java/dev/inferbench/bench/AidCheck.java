package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Percentiles;
import dev.inferbench.stats.Ratio;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tools/aid-check.sh MODEL PERCENT}: holds the injected-slowdown aid ({@link InjectedSlowdown}) to its label on
 * one cell, in one JVM, with nothing of a comparison's fork-to-fork spread in the way. The cell (batch 1, one intra-op
 * thread, on ort) is called through the benchmark's own method ({@link InferenceBenchmark#call}) in blocks of equal
 * length, one block with the aid off and one with it at PERCENT per round, in ABBA order, for {@value #ROUNDS} rounds
 * after a warm-up that runs both. Printed: the calls the aid made per measured call (counted: the share it plants by
 * construction), the time per measured call on / off with its paired 99 % interval (measured: whether an extra call
 * costs what an ordinary one does, and whether the aid's own bookkeeping adds anything), and whether that interval
 * lies within {@value #TOLERANCE_POINTS} of a point of 1 + PERCENT / 100.
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

    private AidCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: tools/aid-check.sh MODEL PERCENT (e.g. tools/aid-check.sh mlp-tiny 3)");
            System.exit(2);
        }
        try {
            double percent = percent(args[1]);
            System.exit(run(args[0], percent));
        } catch (BenchException e) {
            System.err.println("inferbench: " + e.getMessage());
            System.exit(2);
        }
    }

    static double percent(String text) throws BenchException {
        try {
            double p = Double.parseDouble(text.trim().replace("%", ""));
            if (p > 0 && p <= 100) {
                return p;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException("PERCENT '" + text + "' is not a slowdown from 0 (exclusive) to 100; expected e.g. 3");
    }

    private static int run(String model, double percent) throws Exception {
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
                warm += 200;
            }
            long perBlock = Math.max(1, (long) (BLOCK_MS * 1e6 / (WARMUP_SECONDS * 1e9 / warm)));
            double[][] offNs = new double[ROUNDS][1];
            double[][] onNs = new double[ROUNDS][1];
            long onCalls = 0;
            for (int r = 0; r < ROUNDS; r++) {
                boolean offFirst = r % 4 == 0 || r % 4 == 3;
                if (offFirst) {
                    offNs[r][0] = timed(own, off, bh, perBlock, null) / perBlock;
                }
                long[] made = new long[1];
                onNs[r][0] = timed(own, on, bh, perBlock, made) / perBlock;
                onCalls += made[0];
                if (!offFirst) {
                    offNs[r][0] = timed(own, off, bh, perBlock, null) / perBlock;
                }
            }
            Interval ratio = Ratio.paired(offNs, onNs, CONFIDENCE);
            double label = 1 + percent / 100;
            double callShare = (double) onCalls / (ROUNDS * perBlock);
            System.out.printf(Locale.ROOT, "aid check, %s batch 1 on ort, threads 1, aid at %.3g %%: %d rounds of two "
                    + "blocks of %,d measured calls (ABBA), after %,d warm-up calls%n", model, percent, ROUNDS, perBlock, warm);
            System.out.printf(Locale.ROOT, "  calls made per measured call with the aid on: %.5f (counted; the label "
                    + "says %.5f)%n", callShare, label);
            System.out.printf(Locale.ROOT, "  time per measured call, aid off: %.3f us (median of rounds %.3f us)%n",
                    ForkMeans.mean(ForkMeans.of(offNs)) / 1e3, median(offNs) / 1e3);
            System.out.printf(Locale.ROOT, "  time per measured call, on / off: %.4f [%.4f, %.4f] (%.0f %% interval, "
                    + "paired by round; measured)%n", ratio.estimate(), ratio.lower(), ratio.upper(), CONFIDENCE * 100);
            System.out.printf(Locale.ROOT, "  so an extra call costs %.2f ordinary calls%n",
                    (ratio.estimate() - 1) / (callShare - 1));
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

    private static long block(Callers.Caller own, InjectedSlowdown aid, Blackhole bh, long calls) throws BenchException {
        long made = 0;
        for (long i = 0; i < calls; i++) {
            made += InferenceBenchmark.call(own, aid, bh);
        }
        return made;
    }

    /** Nanoseconds for {@code calls} measured calls; the calls made (with extra ones) into {@code made[0]}. */
    private static double timed(Callers.Caller own, InjectedSlowdown aid, Blackhole bh, long calls, long[] made)
            throws BenchException {
        long t0 = System.nanoTime();
        long n = block(own, aid, bh, calls);
        long t1 = System.nanoTime();
        if (made != null) {
            made[0] = n;
        }
        return t1 - t0;
    }

    private static double median(double[][] v) {
        double[] x = ForkMeans.of(v);
        java.util.Arrays.sort(x);
        return Percentiles.interpolated(x, 0.5);
    }
}
