package dev.inferbench.run;

import java.nio.charset.StandardCharsets;
import java.io.ByteArrayOutputStream;
import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.AtomicFile;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.RunLayout;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.inferbench.run.ForkResults.cell;
import static dev.inferbench.run.ForkResults.fork;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The run folder the loop keeps, on JMH results made by hand: no JMH run, no jar. */
class RunStoreTest {
    private static final Cell A = cell("a");
    private static final Cell B = cell("b");
    private static final ForkTime T1 = new ForkTime(Instant.parse("2026-01-02T10:00:00Z"), Instant.parse("2026-01-02T10:00:07.5Z"));
    private static final ForkTime T2 = new ForkTime(Instant.parse("2026-01-02T10:01:00Z"), Instant.parse("2026-01-02T10:01:03Z"));

    @TempDir
    Path tmp;

    private static Plan plan(Cell... cells) {
        return Plan.of(List.of("-f", "2"), null, 2, new Plan.Settings(0, null, 2, null), Shard.WHOLE, List.of(cells),
                List.of());
    }

    private RunStore newStore(String name) throws BenchException {
        return RunStore.create(tmp.resolve(name), plan(A, B));
    }

    /** Per fork, the iteration scores as JMH's JSON in the file holds them. */
    private static List<List<Double>> rawData(MeasuredCell cell) {
        return cell.primary().rawData();
    }

    private static List<Double> scores(RunResult fork) {
        return fork.getBenchmarkResults().iterator().next().getIterationResults().stream()
                .map(i -> i.getPrimaryResult().getScore()).toList();
    }

    @Test
    void createRefusesAFolderWithAnythingInIt() throws IOException {
        Path used = Files.createDirectories(tmp.resolve("used"));
        Files.writeString(used.resolve("notes.txt"), "mine");
        assertThatThrownBy(() -> RunStore.create(used, plan(A))).isInstanceOf(BenchException.class)
                .hasMessageContaining("is not empty").hasMessageContaining("--resume " + used);
        try (Stream<Path> s = Files.list(used)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("notes.txt");
        }
        assertThatThrownBy(() -> RunStore.open(used)).isInstanceOf(BenchException.class)
                .hasMessageContaining("is not a run folder (no plan.json)");
    }

    @Test
    void createWritesThePlanAndAnEmptyValidResult() throws Exception {
        Path dir = tmp.resolve("new/run");
        Plan plan = plan(A, B);
        RunStore store = RunStore.create(dir, plan);
        assertThat(RunStore.open(dir).plan()).isEqualTo(plan);
        assertThat(RunLayout.of(dir).plan()).isRegularFile();
        assertThat(JmhJson.read(RunLayout.of(dir).result())).isEmpty();
        assertThat(Files.readString(RunLayout.of(dir).result()).strip()).startsWith("[").endsWith("]");
        assertThat(store.forks().landed(A)).isEmpty();
        assertThat(store.failures().reasons(List.of(A, B))).isEmpty();
    }

    @Test
    void saveForkKeepsJsonTimeAndObjectsAndLandedIsByForkNumber() throws Exception {
        RunStore store = newStore("run");
        store.forks().save(A, 2, fork(A, 5, 6), T2);
        store.forks().save(A, 1, fork(A, 3, 4), T1);
        RunLayout l = store.layout();
        for (int f : new int[]{1, 2}) {
            assertThat(l.forkJson(A.id(), f)).isRegularFile();
            assertThat(l.forkTime(A.id(), f)).isRegularFile();
            assertThat(l.forkResult(A.id(), f)).isRegularFile();
        }
        assertThat(ForkTime.read(l.forkTime(A.id(), 1))).contains(T1);
        assertThat(ForkTime.read(l.forkTime(A.id(), 2))).contains(T2);
        List<MeasuredCell> one = JmhJson.read(l.forkJson(A.id(), 2));
        assertThat(one).hasSize(1);
        assertThat(one.get(0).forks()).isEqualTo(1);
        assertThat(rawData(one.get(0))).containsExactly(List.of(5.0, 6.0));

        Map<Integer, RunResult> landed = store.forks().landed(A);
        assertThat(landed).containsOnlyKeys(1, 2);
        assertThat(landed.keySet()).containsExactly(1, 2);
        assertThat(scores(landed.get(1))).containsExactly(3.0, 4.0);
        assertThat(scores(landed.get(2))).containsExactly(5.0, 6.0);
        assertThat(store.forks().landed(B)).isEmpty();
    }

    @Test
    void aForkWithoutItsObjectsFileHasNotLanded() throws Exception {
        RunStore store = newStore("run");
        store.forks().save(A, 1, fork(A, 3), T1);
        store.forks().save(A, 2, fork(A, 5), T2);
        // killed between the .json and the record of fork 2, and a temp file of fork 3's record left behind
        Files.delete(store.layout().forkResult(A.id(), 2));
        Files.write(store.layout().cellForks(A.id()).resolve(".fork-3.record.json123.part"), new byte[]{1, 2, 3});
        assertThat(store.layout().forkJson(A.id(), 2)).isRegularFile();
        assertThat(store.forks().landed(A)).containsOnlyKeys(1);
        assertThat(store.result().rebuild(List.of(A))).hasSize(1);
        List<MeasuredCell> merged = JmhJson.read(store.layout().result());
        assertThat(merged).hasSize(1);
        assertThat(merged.get(0).forks()).isEqualTo(1);
        assertThat(rawData(merged.get(0))).containsExactly(List.of(3.0));
    }

    @Test
    void aForkOfAnotherCellInACellsFolderIsRefused() throws Exception {
        RunStore store = newStore("run");
        store.forks().save(A, 1, fork(A, 3), T1);
        Files.copy(store.layout().forkResult(A.id(), 1), Files.createDirectories(store.layout().cellForks(B.id()))
                .resolve("fork-1" + RunLayout.FORK_RESULT_SUFFIX));
        assertThatThrownBy(() -> store.forks().landed(B)).isInstanceOf(BenchException.class)
                .hasMessageContaining("holds a fork of dev.inferbench.bench.FakeBenchmark.call (ss) [size=a]")
                .hasMessageContaining("expected one of the cell");
        assertThat(store.forks().landed(A)).containsOnlyKeys(1);
    }

    @Test
    void failuresGiveTheFirstLineOfTheFirstRecordPerCell() throws Exception {
        RunStore store = newStore("run");
        store.failures().save(B, 2, "forked VM failed with exit code 3\n<stderr>\nmore");
        store.failures().save(B, 1, "injected failure (fault=throw)\n  at FaultInjectionBenchmark.strike");
        store.failures().save(A, 1, "");
        assertThat(store.layout().failure(B.id(), 2)).isRegularFile();
        Map<Cell, String> failures = store.failures().reasons(List.of(B, A));
        assertThat(failures).containsExactly(Map.entry(B, "injected failure (fault=throw)"), Map.entry(A, "failed"));

        // a fork that lands later (a resumed run) clears its own failure record
        store.forks().save(A, 1, fork(A, 3), T1);
        assertThat(store.layout().failure(A.id(), 1)).doesNotExist();
        assertThat(store.failures().reasons(List.of(A, B))).containsOnlyKeys(B);

        // the first record is the lowest fork number, not the first name as text (fork-10 sorts before fork-2)
        store.failures().save(A, 10, "the tenth fork's reason");
        store.failures().save(A, 2, "the second fork's reason");
        assertThat(store.failures().reasons(List.of(A))).containsEntry(A, "the second fork's reason");
    }

    /**
     * jmh-result.json is rebuilt from parts each written once per new fork: after every fork it must be the bytes
     * JMH's writer gives for all the merged cells at once, whatever cells landed since the last rebuild.
     */
    @Test
    void theRebuiltFileIsWhatJmhsWriterWritesForAllCells() throws Exception {
        Cell c = cell("c");
        RunStore store = RunStore.create(tmp.resolve("parts"), plan(A, B, c));
        List<Cell> cells = List.of(A, B, c);
        long[][] landing = {{1, 1, 2}, {2, 1, 5}, {3, 1, 7}, {1, 2, 3}, {3, 2, 9}, {2, 2, 4}};
        int n = 0;
        for (long[] l : landing) {
            Cell which = cells.get((int) l[0] - 1);
            store.forks().save(which, (int) l[1], fork(which, l[2], l[2] + 1), T1);
            List<RunResult> merged = store.result().rebuild(cells);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            JmhResultWriter.writeJson(merged, all);
            assertThat(Files.readString(store.layout().result())).as("after fork %d", ++n)
                    .isEqualTo(all.toString(StandardCharsets.UTF_8));
        }
        assertThat(JmhJson.read(store.layout().result())).hasSize(3).allSatisfy(j -> assertThat(j.forks()).isEqualTo(2));
    }

    @Test
    void rebuildMergesTheForksOfEachCellInPlanOrder() throws Exception {
        RunStore store = newStore("run");
        store.forks().save(A, 1, fork(A, 1, 2), T1);
        store.forks().save(B, 1, fork(B, 7, 8), T1);
        store.forks().save(A, 2, fork(A, 3, 4), T2);
        Cell never = cell("never");

        List<RunResult> merged = store.result().rebuild(List.of(B, never, A));
        assertThat(merged).hasSize(2);
        List<MeasuredCell> cells = JmhJson.read(store.layout().result());
        assertThat(cells).extracting(c -> c.params().get("size")).containsExactly("b", "a");
        assertThat(cells).allSatisfy(c -> {
            assertThat(c.benchmark()).isEqualTo("dev.inferbench.bench.FakeBenchmark.call");
            assertThat(c.mode()).isEqualTo("ss");
            assertThat(c.primary().unit()).isEqualTo("ms/op");
        });
        assertThat(cells.get(0).forks()).isEqualTo(1);
        assertThat(rawData(cells.get(0))).containsExactly(List.of(7.0, 8.0));
        assertThat(cells.get(1).forks()).isEqualTo(2);
        assertThat(rawData(cells.get(1))).containsExactly(List.of(1.0, 2.0), List.of(3.0, 4.0));
        assertThat(cells.get(1).primary().score()).isEqualTo(2.5);
    }

    @Test
    void theMergedFileDoesNotDependOnTheOrderForksLanded() throws Exception {
        RunStore inOrder = newStore("in-order");
        for (int f = 1; f <= 5; f++) {
            inOrder.forks().save(A, f, fork(A, f), T1);
        }
        inOrder.forks().save(B, 1, fork(B, 9), T1);
        // neither creation order nor its reverse (nor, but by chance, a directory's hash order) is fork order
        RunStore scrambled = newStore("scrambled");
        scrambled.forks().save(B, 1, fork(B, 9), T1);
        for (int f : new int[]{3, 1, 5, 2, 4}) {
            scrambled.forks().save(A, f, fork(A, f), T1);
        }

        inOrder.result().rebuild(List.of(A, B));
        scrambled.result().rebuild(List.of(A, B));
        assertThat(scrambled.forks().landed(A).keySet()).containsExactly(1, 2, 3, 4, 5);
        assertThat(rawData(JmhJson.read(scrambled.layout().result()).get(0)))
                .containsExactly(List.of(1.0), List.of(2.0), List.of(3.0), List.of(4.0), List.of(5.0));
        assertThat(Files.readString(scrambled.layout().result())).isEqualTo(Files.readString(inOrder.layout().result()));
    }

    @Test
    void writesLeaveNoTempFilesAndFilesReadableByOthers() throws Exception {
        RunStore store = newStore("run");
        store.forks().save(A, 1, fork(A, 1), T1);
        store.failures().save(B, 1, "boom");
        store.result().rebuild(List.of(A, B));
        Path target = store.dir().resolve("twice.txt");
        AtomicFile.write(target, "first".getBytes());
        AtomicFile.write(target, "second".getBytes());
        assertThat(target).hasContent("second");
        try (Stream<Path> all = Files.walk(store.dir())) {
            List<Path> files = all.filter(Files::isRegularFile).toList();
            assertThat(files).hasSizeGreaterThanOrEqualTo(7)
                    .noneMatch(p -> p.getFileName().toString().endsWith(".part"));
            if (Files.getFileStore(target).supportsFileAttributeView("posix")) {
                assertThat(files).allSatisfy(p -> assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)))
                        .as(p.toString()).isEqualTo("rw-r--r--"));
            }
        }
    }
}
