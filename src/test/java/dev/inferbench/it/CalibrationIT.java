package dev.inferbench.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The calibration table through the jar, as {@code calibrate} runs it: each figure read on a stub of known cost must
 * read its planted value, so that no change alters what a figure means without a red build. Each of the table's runs
 * costs a launcher, a fork and a report (about ten seconds on 2 cores), so {@code mvn verify} reads a figure of each
 * kind from six runs, and {@code mvn verify -Pcalibration} (the JUnit tag {@value #TABLE}) reads every row of
 * {@code calibrate --fast} (docs/calibration.md). Its figures are times, so it runs alone: no other end-to-end
 * test's JVMs beside it.
 */
@Isolated
class CalibrationIT {
    /** The tag of the whole fast table, left out of the default build. */
    static final String TABLE = "calibration";
    /** The tag of the figures {@code mvn verify} reads, which the whole table reads again. */
    static final String SAMPLE = "calibration-sample";

    /**
     * Rows by their figure's name, from six runs, each a figure whose reading holds with other work on the machine
     * (a build beside this one): bytes per call at a 20 ms call (0, 64 and 4,096 B; JMH's gc.alloc.rate.norm reads
     * hundreds there), the summary's mean and samples/s of that call; the summary's p50, p99, min and first call of
     * the 2 ms calls with a 20 ms tail; the decoder's TTFT, TPOT, end-to-end time, ITL's p50, tokens/s, prefill share
     * and cache bytes; TTFT and TPOT under open-loop load. The tail of short calls (p95, max, their mean and sd, ITL's
     * p90) moves with every other process's wake-ups, and is read in the whole table only.
     */
    private static final List<String> SAMPLED = List.of("alloc B/op (alloc.call), 20 ms call", ", 20 ms call at batch 1",
            "(the summary's mean), 20 ms call", "p50 (the summary's)", "p99, same calls", "min, same calls",
            "500 ms planted", "gen.ttft (GenerationBenchmark)", "gen.tpot (GenerationBenchmark)", "gen.e2e",
            "gen.itl.p50 (GenerationBenchmark)", "gen.tokens.", "gen.prefill.share", "gen.kv.token",
            "serve.ttft.p50 under load", "serve.tpot.p50 under load");

    @TempDir
    static Path work;

    private static List<String> rows(Jar.Run r) {
        return Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("| ") && !l.startsWith("| figure")).toList();
    }

    @Test
    @Tag(SAMPLE)
    void aFigureOfEachKindReadsItsPlantedValue() throws Exception {
        List<String> args = new ArrayList<>(List.of("calibrate", "--fast", "-o", "sample"));
        SAMPLED.forEach(figure -> args.addAll(List.of("--only", figure)));
        Jar.Run r = Jar.run(Jar.command(work, List.of(), args), work);
        List<String> rows = rows(r);
        assertThat(rows).as(r.out() + r.err()).hasSize(19);
        assertThat(rows).as(r.out()).allMatch(l -> l.endsWith("| holds |"));
        assertThat(r.out()).contains("| alloc B/op (alloc.call), 20 ms call | 4096 B | 4096 B |")
                .contains("19 of 19 figures read their planted value");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }

    @Test
    @Tag(TABLE)
    void everyFastFigureReadsItsPlantedValue() throws Exception {
        Jar.Run r = Jar.run(work, "calibrate --fast -o cal");
        List<String> rows = rows(r);
        assertThat(rows).as(r.out() + r.err()).hasSize(53);
        assertThat(rows).as(r.out()).allMatch(l -> l.endsWith("| holds |"));
        assertThat(r.out()).contains("| alloc B/op (alloc.call), 20 ms call | 4096 B | 4096 B |")
                .contains("53 of 53 figures read their planted value");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }
}
