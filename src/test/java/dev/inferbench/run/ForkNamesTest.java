package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.input.data.FileFuzz;
import dev.inferbench.input.data.FileFuzz.Outcome;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static dev.inferbench.run.ForkResults.cell;
import static dev.inferbench.run.ForkResults.fork;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A fork file's name comes from a folder that may come from elsewhere: its number is data, checked like any. */
class ForkNamesTest {
    private static final Cell A = cell("a");
    private static final String[] NUMBERS = {"0", "1", "01", "2147483647", "2147483648", "4294967297",
            "99999999999999999999", "9223372036854775808", "0000000000000000000000007"};

    @TempDir
    Path tmp;

    private RunLayout landedOne() throws Exception {
        RunStore store = RunStore.create(tmp.resolve("run"), Plan.of(List.of(), null, 1,
                new Plan.Settings(0, null, 1, null), Shard.WHOLE, List.of(A), List.of()));
        store.forks().save(A, 1, fork(A, 3), new ForkTime(Instant.EPOCH, Instant.EPOCH.plusSeconds(1)));
        return store.layout();
    }

    @Test
    void aForkNumberedPastAnIntIsRefusedInOneLine() throws Exception {
        RunLayout layout = landedOne();
        Path big = layout.cellForks(A.id()).resolve("fork-99999999999999999999" + RunLayout.FORK_RESULT_SUFFIX);
        Files.copy(layout.forkResult(A.id(), 1), big);
        assertThatThrownBy(() -> new ForkStore(layout).landed(A)).isInstanceOf(BenchException.class)
                .hasMessage(big + " is numbered past 2147483647; expected fork-N" + RunLayout.FORK_RESULT_SUFFIX
                        + " as inferbench names its forks");
    }

    @Test
    void forkFilesOfAnyNameAreReadOrRefusedInOneLine() throws Exception {
        RunLayout layout = landedOne();
        Path cellDir = layout.cellForks(A.id());
        byte[] record = Files.readAllBytes(layout.forkResult(A.id(), 1));
        try (Stream<Path> s = Files.list(cellDir)) {
            for (Path p : s.toList()) {
                Files.delete(p);
            }
        }
        Outcome o = FileFuzz.run(cellDir, FileFuzz.MUTANTS, (dir, seed) -> {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder digits = new StringBuilder(NUMBERS[rnd.nextInt(NUMBERS.length)]);
            for (int i = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(24) : 0; i > 0; i--) {
                digits.insert(rnd.nextInt(digits.length() + 1), (char) ('0' + rnd.nextInt(10)));
            }
            return Files.write(dir.resolve("fork-" + digits + RunLayout.FORK_RESULT_SUFFIX), record);
        }, file -> new ForkStore(layout).landed(A));
        String summary = o.summary("a fork file's name");
        assertThat(o.escapes()).as(summary).isEmpty();
        assertThat(o.refused()).as(summary).isPositive();
        assertThat(o.accepted()).as(summary).isPositive();
    }
}
