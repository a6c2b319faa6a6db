package dev.inferbench.calibration;

import dev.inferbench.plant.TailPlant;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.tail.Cause;
import dev.inferbench.tail.TailMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code --tail}'s attribution against planted causes ({@link TailPlant}): a stub call that spends 1 ms of CPU, and
 * in one run each every {@value #EVERY}th call given a collection, a thread dump (a safepoint) or a rival thread on
 * the caller's CPU (descheduled). For each: at least 90 % of the planted calls are given their cause, at most 5 % of
 * the calls with nothing planted are given a main cause, and the p99 without the calls given the cause is within 10 %
 * of the p99 of the same call with nothing planted (its own run).
 */
final class TailRows {
    static final int EVERY = 50;
    /** Between the counterfactual p99 and the plain run's p99: the first over the second. */
    static final String OVER = " / ";
    private static final String CALL = "cpu=1ms";

    private TailRows() {
    }

    static void rows(List<CalibrationRows.Row> rows) {
        causeRows(rows, run("tail-plain", null), List.of(Cause.GC, Cause.SAFEPOINT, Cause.DESCHEDULED),
                cause -> run("tail-" + cause.key(), cause.key() + "=" + EVERY), "calls", "p99", "call of 1 ms CPU",
                CalibrationRows.P99);
    }

    /**
     * The same rows on a generation cell's tokens: the stub decoder's cached steps of 1 ms (wall), every {@value
     * #EVERY}th given a collection or a thread dump before it; the prefill, 2 ms, is no call of the record. A rival on
     * the caller's CPU is not planted here: a step that waits out wall time is not lengthened by losing its CPU.
     */
    static void tokenRows(List<CalibrationRows.Row> rows) {
        causeRows(rows, tokens("tail-tokens-plain", null), List.of(Cause.GC, Cause.SAFEPOINT),
                cause -> tokens("tail-tokens-" + cause.key(), cause.key() + "=" + EVERY), "tokens", "token p99",
                "token of 1 ms (GenerationBenchmark)", TailMetrics.P99);
    }

    /**
     * The same rows on an open-loop serving step's service calls: one caller serving 3,000 requests at 500 a second, each
     * call 1 ms of CPU, every {@value #EVERY}th given a collection, a thread dump or a rival on the caller's CPU. The
     * caller waits for each request, so the rows also hold that a wait is not read as the call's time off its CPU.
     */
    static void servingRows(List<CalibrationRows.Row> rows) {
        causeRows(rows, serving("tail-serving-plain", null), List.of(Cause.GC, Cause.SAFEPOINT, Cause.DESCHEDULED),
                cause -> serving("tail-serving-" + cause.key(), cause.key() + "=" + EVERY), "service calls",
                "service call p99", "service call of 1 ms CPU (ServingBenchmark, 500 req/s)", TailMetrics.P99);
    }

    /**
     * Three rows per cause, each read on the run that plants it: the planted {@code items} given their cause, the
     * {@code items} with nothing planted given one, and the p99 without the cause over {@code plain}'s {@code plainP99}.
     */
    private static void causeRows(List<CalibrationRows.Row> rows, CalibrationRows.Run plain, List<Cause> causes,
            Function<Cause, CalibrationRows.Run> plantedRun, String items, String p99, String each, String plainP99) {
        for (Cause cause : causes) {
            CalibrationRows.Run planted = plantedRun.apply(cause);
            String what = cause.words() + " planted every " + EVERY + "th " + each;
            rows.add(new CalibrationRows.Row("tail: planted " + items + " given their cause (%), " + what, 100, "%",
                    10, false, false, planted, TailMetrics.PLANTED_HIT));
            rows.add(new CalibrationRows.Row("tail: " + items + " with nothing planted given a cause (%), " + what, 0,
                    "%", 5, false, false, planted, TailMetrics.UNPLANTED_CAUSED));
            rows.add(new CalibrationRows.Row("tail: " + p99 + " without " + cause.words()
                    + " over the p99 with nothing planted, " + what, 1, "x", 0.10, false, false, planted,
                    TailMetrics.without(cause) + OVER + plainP99, plain));
        }
    }

    static boolean reads(String metric) {
        return metric.startsWith(TailMetrics.PREFIX) && metric.contains(OVER);
    }

    /** The counterfactual p99 of the planted run over the plain run's p99 (the summary's); NaN when either is absent. */
    static double read(List<MeasuredCell> planted, List<MeasuredCell> plain, CalibrationRows.Row row) {
        String[] two = row.metric().split(OVER, 2);
        return CalibrationRows.read(planted, two[0]) / CalibrationRows.read(plain, two[1]);
    }

    private static CalibrationRows.Run tokens(String name, String plant) {
        List<String> args = new ArrayList<>(List.of("GenerationBenchmark", "--tail", "-p", "engine=stub", "-p",
                "model=llama-tiny", "-p", "promptLen=16", "-p", "outputLen=33", "-p", "batchSize=1", "-p", "threads=1",
                "-f", "2", "-wi", "1", "-w", "1s", "-i", "3", "-r", "1s", "--rerun-disturbed", "0", "-jvmArgsAppend",
                CalibrationRows.STUB + "prefill=2ms,token=1ms"
                        + (plant == null ? "" : " -D" + TailPlant.PROPERTY + "=" + plant)));
        return new CalibrationRows.Run(name, List.copyOf(args));
    }

    private static CalibrationRows.Run serving(String name, String plant) {
        List<String> args = new ArrayList<>(List.of("ServingBenchmark", "--tail", "-p", "engine=stub", "-p",
                "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1", "-p", "rate=500", "-p", "requests=3000", "-p",
                "stepSeconds=0", "-f", "2", "--rerun-disturbed", "0", "-jvmArgsAppend", CalibrationRows.STUB + CALL
                        + (plant == null ? "" : " -D" + TailPlant.PROPERTY + "=" + plant)));
        return new CalibrationRows.Run(name, List.copyOf(args));
    }

    private static CalibrationRows.Run run(String name, String plant) {
        List<String> args = new ArrayList<>(List.of("InferenceBenchmark", "--tail", "-p", "engine=stub", "-p",
                "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1", "-f", "2", "-wi", "1", "-w", "1s", "-i", "3",
                "-r", "1s", "--rerun-disturbed", "0", "-jvmArgsAppend", CalibrationRows.STUB + CALL
                        + (plant == null ? "" : " -D" + TailPlant.PROPERTY + "=" + plant)));
        return new CalibrationRows.Run(name, List.copyOf(args));
    }
}
