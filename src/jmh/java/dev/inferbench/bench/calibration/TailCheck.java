package dev.inferbench.bench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.bench.Callers;
import dev.inferbench.bench.InferenceBenchmark;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.plant.InjectedSlowdown;
import dev.inferbench.stats.ForkMeans;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.Ratio;
import dev.inferbench.tail.JvmEvents;
import dev.inferbench.tail.SlowCalls;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code calibrate tail-check MODEL [BATCH] [ROUNDS] [--jfr]}: what the slow-call recorder of {@code --tail} adds to a call,
 * in one JVM, with nothing of a comparison's fork-to-fork spread in the way. The cell (on ort, the engine's default
 * threads) is called in blocks of at least {@value #BLOCK_MS} ms, two per round in alternating order, for ROUNDS rounds
 * ({@value #ROUNDS} unless given) after a warm-up of both: the recorder on, through the benchmark's own method
 * ({@link InferenceBenchmark#recorded}, which in this JVM only ever sees it on, as a {@code --tail} fork's code does),
 * and off, through a copy of that method that only ever sees it off (as a fork without {@code --tail} compiles it).
 * Printed: the calls the recorder kept, and the time per call on / off with its paired 99 % interval.
 *
 * <p>Exit 0: the interval lies at or below 1 + {@value #BOUND_POINTS} %; 1: it lies above; 3: too wide to tell (a noisy
 * stretch; run again with more rounds); 2: bad input. With {@code --jfr} each block with the recorder on also runs
 * under {@code --tail}'s JFR recording ({@link JvmEvents}, started before the block's clock and closed after it), so
 * the ratio prices all of what {@code --tail} adds to a call; what the recording costs outside calls (its dump and
 * reading after the fork's last iteration) is outside the measured iterations in a fork too.
 */
public final class TailCheck {
    static final int ROUNDS = 600;
    static final double BLOCK_MS = 50;
    static final double WARMUP_SECONDS = 5;
    static final double BOUND_POINTS = 1;
    static final double CONFIDENCE = 0.99;

    private TailCheck() {
    }

    /** The check on its arguments (MODEL [BATCH] [ROUNDS]); its exit code. */
    public static int check(String[] given) throws Exception {
        List<String> rest = new ArrayList<>(List.of(given));
        boolean jfr = rest.remove("--jfr");
        String[] args = rest.toArray(String[]::new);
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: java -jar target/benchmarks.jar calibrate tail-check MODEL [BATCH] [ROUNDS]"
                    + " [--jfr] (e.g. ... calibrate tail-check resnet50 1 600 --jfr)");
            return 2;
        }
        try {
            int batch = args.length > 1 ? StepCheck.whole("BATCH", args[1], 1, "1") : 1;
            int rounds = args.length > 2 ? StepCheck.whole("ROUNDS", args[2], 8, "600") : ROUNDS;
            return run(args[0], batch, rounds, jfr);
        } catch (BenchException e) {
            System.err.println("inferbench: " + e.getMessage());
            return 2;
        }
    }

    private static int run(String model, int batch, int rounds, boolean jfr) throws Exception {
        CellSpec spec = CellSpec.of(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, Integer.toString(batch),
                CellSpec.ENGINE, "ort"), BenchConfig.load());
        if (!Files.isRegularFile(spec.modelFile())) {
            throw new BenchException("model file " + spec.modelFile() + " is missing; expected it made by a run of "
                    + "the cell first (java -jar target/benchmarks.jar -p model=" + model + " -f 1 -i 1)");
        }
        Blackhole bh = new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
        InjectedSlowdown noAid = new InjectedSlowdown(0, System::nanoTime);
        try (Callers callers = Callers.load(spec)) {
            Callers.Caller own = callers.next();
            SlowCalls on = SlowCalls.unlisted();
            SlowCalls off = SlowCalls.off();
            long warm = 0;
            long until = System.nanoTime() + (long) (WARMUP_SECONDS * 1e9);
            while (System.nanoTime() < until) {
                recordedBlock(on, own, noAid, bh, 10);
                plainBlock(off, own, noAid, bh, 10);
                warm += 20;
            }
            long perBlock = Math.max(1, (long) (BLOCK_MS * 1e6 / (WARMUP_SECONDS * 1e9 / warm)));
            for (int k = 0; jfr && k < 5; k++) {
                try (JvmEvents events = JvmEvents.start()) {
                    recordedBlock(on, own, noAid, bh, perBlock);
                }
            }
            double[][] onNs = new double[rounds][1];
            double[][] offNs = new double[rounds][1];
            long keptBefore = on.kept();
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 2; k++) {
                    boolean recorded = (r + k) % 2 == 0;
                    JvmEvents events = recorded && jfr ? JvmEvents.start() : null;
                    long t0 = System.nanoTime();
                    if (recorded) {
                        recordedBlock(on, own, noAid, bh, perBlock);
                    } else {
                        plainBlock(off, own, noAid, bh, perBlock);
                    }
                    double ns = (double) (System.nanoTime() - t0) / perBlock;
                    if (events != null) {
                        events.close();
                    }
                    (recorded ? onNs : offNs)[r][0] = ns;
                }
            }
            Interval ratio = Ratio.paired(offNs, onNs, CONFIDENCE);
            long calls = (long) rounds * perBlock;
            System.out.printf(Locale.ROOT, "tail check, %s batch %d on ort: %d rounds of two blocks of %,d calls"
                    + " (order alternating), after %,d warm-up calls; on: the recorder%s%n", model, batch, rounds,
                    perBlock, warm, jfr ? " and --tail's JFR recording" : " (no JFR recording)");
            System.out.printf(Locale.ROOT, "  calls the recorder kept (above its running p90): %,d of %,d (%.1f %%)%n",
                    on.kept() - keptBefore, calls, 100.0 * (on.kept() - keptBefore) / calls);
            System.out.printf(Locale.ROOT, "  time per call, recorder off: %.4g us (median of rounds %.4g us)%n",
                    ForkMeans.mean(ForkMeans.of(offNs)) / 1e3, AidCheck.median(offNs) / 1e3);
            System.out.printf(Locale.ROOT, "  on / off: %.4f [%.4f, %.4f] (%.0f %% interval, paired by round;"
                    + " measured)%n", ratio.estimate(), ratio.lower(), ratio.upper(), CONFIDENCE * 100);
            double bound = 1 + BOUND_POINTS / 100;
            if (ratio.upper() <= bound) {
                System.out.printf(Locale.ROOT, "within %.0f %%: the interval lies at or below %.2f%n", BOUND_POINTS,
                        bound);
                return 0;
            }
            if (ratio.lower() > bound) {
                System.out.printf(Locale.ROOT, "MORE than %.0f %%: the interval lies above %.2f%n", BOUND_POINTS,
                        bound);
                return 1;
            }
            System.out.printf(Locale.ROOT, "cannot tell: the interval reaches above %.2f; run again with more rounds%n",
                    bound);
            return 3;
        }
    }

    private static void recordedBlock(SlowCalls tail, Callers.Caller own, InjectedSlowdown aid, Blackhole bh,
            long calls) throws BenchException {
        for (long i = 0; i < calls; i++) {
            InferenceBenchmark.recorded(tail, own, aid, bh);
        }
    }

    /**
     * {@link #recordedBlock} and {@link InferenceBenchmark#recorded} again, word for word, called only with the
     * recorder off: compiled from a profile that never saw it on, as a fork without {@code --tail} compiles it.
     */
    private static void plainBlock(SlowCalls tail, Callers.Caller own, InjectedSlowdown aid, Blackhole bh,
            long calls) throws BenchException {
        for (long i = 0; i < calls; i++) {
            long start = tail.start();
            InferenceBenchmark.call(own, aid, bh);
            tail.end(start);
        }
    }
}
