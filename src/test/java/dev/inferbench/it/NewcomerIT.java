package dev.inferbench.it;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's examples as a newcomer runs them, shortened to tiny models and short iterations: each output fits a
 * screen or two, ends in the lines that say where its files are, names only files that exist, and prints no NaN
 * and no parameter that does not apply ({@link Screen}). The serving example is checked on ServingIT's sweep and the
 * flame graph example on FlameIT's first run, which are the same runs.
 */
class NewcomerIT {
    // forks are counted exactly: no spare forks, which another test running beside this one would cause
    private static final String SHORT = "-f 1 -wi 0 -i 1 -r 200ms" + Jar.NO_SPARES;

    @TempDir
    static Path work;

    /** A run in its own folder that ended 0, within two screens and without a NaN. */
    private record Fit(Path cwd, Jar.Run run, List<String> lines) {
    }

    private static Fit fitsTwoScreens(String folder, String args) throws Exception {
        Path cwd = Files.createDirectory(work.resolve(folder));
        Jar.Run r = Jar.run(cwd, args + " " + SHORT);
        return new Fit(cwd, r, Screen.fitsTwoScreens(r));
    }

    @Test
    void theMatrixRunFitsTwoScreensAndNamesItsCells() throws Exception {
        Fit f = fitsTwoScreens("matrix", "-p model=mlp-tiny -p batchSize=1,4,16 -p threads=1,2");
        Path cwd = f.cwd();
        Jar.Run r = f.run();
        List<String> lines = f.lines();
        // JMH's per-iteration log is in the run folder, not on the terminal
        assertThat(r.out()).doesNotContain("# Warmup").doesNotContain("Secondary result");
        Path runDir = onlyRunFolder(cwd);
        assertThat(Files.readString(runDir.resolve("jmh.log"))).contains("# Benchmark mode").contains("Iteration   1");
        // mlp-tiny has no sequence input: no seq column, no seqLen anywhere in the summary or its notes
        assertThat(r.out()).doesNotContain(" seq ").doesNotContain("seqLen");
        // every note that names a setting of several names the threads that tell them apart
        List<String> throughput = lines.stream().filter(l -> l.startsWith("throughput:")).toList();
        assertThat(throughput).hasSize(2);
        assertThat(throughput.get(0)).contains("threads=1");
        assertThat(throughput.get(1)).contains("threads=2");
        assertThat(lines.stream().filter(l -> l.startsWith("[inferbench] fork ")))
                .allMatch(l -> l.matches(".*cell \\d/6 batchSize=\\d+ threads=\\d, fork 1 of 1.*"));
        Screen.closingLinesNameFilesThatExist(cwd, lines);
        assertThat(lines.get(lines.size() - 1)).startsWith("inferbench: 6 cells measured, 0 failed, 0 skipped");
    }

    @Test
    void compareWithOneForkASideSaysSoOncePerCell() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("compare"));
        Jar.Run first = Jar.run(cwd, "-p model=mlp-tiny -p batchSize=1,4 --run-dir results/a " + SHORT);
        assertThat(first.code()).as(first.out() + first.err()).isZero();
        Jar.Run second = Jar.run(cwd, "-p model=mlp-tiny -p batchSize=1,4 --run-dir results/b " + SHORT);
        assertThat(second.code()).as(second.out() + second.err()).isZero();
        Jar.Run c = Jar.run(cwd, "compare results/a results/b");
        assertThat(c.code()).as(c.out() + c.err()).isZero();
        assertThat(c.out()).doesNotContain("NaN");
        List<String> cellLines = c.out().lines().filter(l -> l.startsWith("infer ")).toList();
        assertThat(cellLines).hasSize(2).allMatch(l -> l.contains("1 fork a side; an interval needs 2"));
        // one line per cell, not a row for each of its metrics
        assertThat(c.out().lines().filter(l -> l.startsWith(" ")).count()).isZero();
        assertThat(c.out().lines().filter(l -> l.startsWith("could not tell")))
                .containsExactly("could not tell in 2 rows: too few forks for an interval (the table's verdicts);"
                        + " rerun each side with -f 2 or more (java -jar target/benchmarks.jar -f N), or both with"
                        + " compare-commits, which runs their forks in pairs");
        // mlp-tiny takes no sequence length: the cells' shared settings do not name one
        assertThat(c.out()).contains("every cell: ").doesNotContain("seqLen");
        // the history of a run in a folder of the user's choosing stays beside it
        assertThat(second.out()).contains("run added to the history in " + Path.of("results", "history"));
    }

    private static Path onlyRunFolder(Path cwd) throws IOException {
        try (Stream<Path> s = Files.list(cwd.resolve("results"))) {
            List<Path> dirs = s.filter(d -> !d.getFileName().toString().equals("history")).toList();
            assertThat(dirs).hasSize(1);
            return dirs.get(0);
        }
    }
}
