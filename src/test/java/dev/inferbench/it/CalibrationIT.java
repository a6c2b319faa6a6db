package dev.inferbench.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast rows of the calibration table through the jar, as {@code calibrate --fast} runs them: each figure read on
 * a stub of known cost (bytes per call at a short and a long call, the mean and samples/s of a 20 ms call, CPU per call
 * in a closed and an open loop, TTFT and TPOT alone and under load, closed-loop users with and without a KV-cache
 * budget, the leaking fault's growth) must read its planted
 * value, so that no change alters what a figure means without a red build.
 */
class CalibrationIT {
    @TempDir
    static Path work;

    @Test
    void everyFastFigureReadsItsPlantedValue() throws Exception {
        Jar.Run r = Jar.run(work, "calibrate --fast -o cal");
        List<String> rows = Arrays.stream(r.out().split("\n")).filter(l -> l.startsWith("| ") && !l.startsWith("| figure"))
                .toList();
        assertThat(rows).as(r.out() + r.err()).hasSize(50);
        assertThat(rows).as(r.out()).allMatch(l -> l.endsWith("| holds |"));
        assertThat(r.out()).contains("| alloc B/op (alloc.call), 20 ms call | 4096 B | 4096 B |")
                .contains("50 of 50 figures read their planted value");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
    }
}
