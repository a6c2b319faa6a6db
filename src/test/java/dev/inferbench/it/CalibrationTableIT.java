package dev.inferbench.it;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every row of {@code calibrate --fast} through the jar, with {@code mvn verify -Pcalibration} (the JUnit tag
 * {@value CalibrationIT#TABLE}). Its tails of short calls (p95, max, ITL's p90) move with every other process's
 * wake-ups, so it runs alone: no other end-to-end test's JVMs beside it.
 */
@Isolated
class CalibrationTableIT {
    @TempDir
    static Path work;

    @Test
    @Tag(CalibrationIT.TABLE)
    void everyFastFigureReadsItsPlantedValue() throws Exception {
        Jar.Run r = Jar.run(work, "calibrate --fast -o cal");
        List<String> rows = CalibrationIT.rows(r);
        assertThat(rows).as(r.out() + r.err()).hasSize(53);
        assertThat(rows).as(r.out()).allMatch(l -> l.endsWith("| holds |"));
        assertThat(r.out()).contains("| alloc B/op (alloc.call), 20 ms call | 4096 B | 4096 B |")
                .contains("53 of 53 figures read their planted value");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }
}
