package dev.inferbench.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * compare-commits end to end on the built jar: an A/A comparison of this checkout with itself on a cell of known
 * size, its launchers real, the machine record its own, the verdict from compare in-process.
 */
class CompareCommitsIT {
    @TempDir
    static Path work;

    @Test
    void anAaComparisonOfThisCheckoutRunsItsPairsAndComparesThem() throws Exception {
        Path out = work.resolve("aa");
        Jar.Run r = Jar.run(Jar.command(Path.of("").toAbsolutePath(), List.of(), List.of("compare-commits", ".", ".",
                "-p", "model=mlp-tiny", "-p", "batchSize=1", "-p", "threads=1", "-wi", "0", "-i", "1", "-r", "100ms",
                "--forks", "3", "--no-where", "--seed", "5", "--out", out.toString())), work);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("[compare-commits] base .: ", "[compare-commits] pair 3 done",
                "[compare-commits] stopped after 3 pairs: each side ran the 3 forks it was given (--forks 3)",
                "mlp-tiny");
        assertThat(Files.readAllLines(out.resolve("machine.tsv"), StandardCharsets.UTF_8)).hasSize(7);
        assertThat(Files.readString(out.resolve("pair-order.txt"))).startsWith("seed 5\n");
        for (String side : List.of("base", "head")) {
            assertThat(out.resolve(side).resolve("jmh-result.json")).exists();
            assertThat(Files.readString(out.resolve(side + ".log"))).contains("paced protocol 4");
        }
        assertThat(out.resolve("pilot.txt")).as("no pilot without --precision").doesNotExist();
    }
}
