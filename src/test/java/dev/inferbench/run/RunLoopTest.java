package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.ForkTime;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.jmh.JmhJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run loop on real JMH forks of {@code FaultInjectionBenchmark} from the test classpath (target/classes holds
 * the benchmark list: no jar). Each fork is a JVM of its own with one 10 ms iteration. JMH's machine-wide lock is
 * honoured as in a real run: while another JMH run measures on this machine, the loop waits for it.
 */
class RunLoopTest {
    private static final String BENCHMARK = "dev.inferbench.bench.FaultInjectionBenchmark.call";
    private static final Cell FIRST = cell("none", "1");
    private static final Cell SECOND = cell("none", "2");
    private static final Cell THROWS = cell("throw", "1");

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    /** The forks the loop started, in order: "fault/atIteration fork N". */
    private final List<String> started = new ArrayList<>();

    private static Cell cell(String fault, String atIteration) {
        return new Cell(BENCHMARK, "avgt", Map.of("fault", fault, "atIteration", atIteration));
    }

    private static Plan plan(Cell... cells) {
        return Plan.of(List.of("FaultInjection"), null, 2, new Plan.Settings(0, null, 1, "10 ms"), Shard.WHOLE,
                List.of(cells), List.of());
    }

    private static Options base() {
        return new OptionsBuilder().include("FaultInjectionBenchmark").warmupIterations(0).measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(10)).build();
    }

    private RunLoop.Outcome run(RunStore store, LoopSettings settings) throws Exception {
        ForkHook recorder = new ForkHook() {
            @Override
            public void beforeFork(Cell cell, int fork, Path forkDir, ChainedOptionsBuilder options) {
                started.add(cell.params().get("fault") + "/" + cell.params().get("atIteration") + " fork " + fork);
            }
        };
        RunLoop loop = new RunLoop(store, store.plan(), base(), settings, List.of(recorder),
                RunConsole.plain(new PrintStream(console, true, StandardCharsets.UTF_8), VerboseMode.SILENT));
        return loop.run();
    }

    private String console() {
        return console.toString(StandardCharsets.UTF_8);
    }

    @Test
    void forksRunInRoundsLandAndAResumedLoopRunsNothingMore() throws Exception {
        RunStore store = RunStore.create(tmp.resolve("run"), plan(FIRST, SECOND));
        RunLoop.Outcome outcome = run(store, LoopSettings.DEFAULT);

        assertThat(started).as(console()).containsExactly("none/1 fork 1", "none/2 fork 1", "none/1 fork 2",
                "none/2 fork 2");
        assertThat(outcome.forksRun()).isEqualTo(4);
        assertThat(outcome.forksRemaining()).isZero();
        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.results()).hasSize(2);
        assertThat(store.forks().landed(FIRST)).containsOnlyKeys(1, 2);
        assertThat(store.forks().landed(SECOND)).containsOnlyKeys(1, 2);
        assertThat(ForkTime.read(store.layout().forkTime(SECOND.id(), 2))).hasValueSatisfying(t ->
                assertThat(t.seconds()).isPositive());
        List<MeasuredCell> cells = JmhJson.read(store.layout().result());
        assertThat(cells).extracting(c -> c.params().get("atIteration")).containsExactly("1", "2");
        assertThat(cells).allSatisfy(c -> {
            assertThat(c.forks()).isEqualTo(2);
            assertThat(c.primary().rawData()).hasSize(2).allSatisfy(f -> assertThat(f).hasSize(1));
        });

        started.clear();
        RunLoop.Outcome again = run(RunStore.open(store.dir()), LoopSettings.DEFAULT);
        assertThat(started).isEmpty();
        assertThat(again.forksRun()).isZero();
        assertThat(again.forksRemaining()).isZero();
        assertThat(again.results()).hasSize(2);
    }

    @Test
    void maxForksStopsEarlyAndAResumedLoopRunsOnlyWhatIsLeft() throws Exception {
        RunStore store = RunStore.create(tmp.resolve("run"), plan(FIRST, SECOND));
        LoopSettings three = new LoopSettings(OptionalInt.of(3), null, OptionalDouble.empty(), null);
        RunLoop.Outcome outcome = run(store, three);

        assertThat(started).as(console()).containsExactly("none/1 fork 1", "none/2 fork 1", "none/1 fork 2");
        assertThat(outcome.forksRun()).isEqualTo(3);
        assertThat(outcome.forksRemaining()).isEqualTo(1);
        assertThat(store.forks().landed(FIRST)).containsOnlyKeys(1, 2);
        assertThat(store.forks().landed(SECOND)).containsOnlyKeys(1);
        assertThat(JmhJson.read(store.layout().result())).extracting(MeasuredCell::forks).containsExactly(2, 1);

        started.clear();
        RunLoop.Outcome rest = run(RunStore.open(store.dir()), LoopSettings.DEFAULT);
        assertThat(started).containsExactly("none/2 fork 2");
        assertThat(rest.forksRun()).isEqualTo(1);
        assertThat(rest.forksRemaining()).isZero();
        assertThat(JmhJson.read(store.layout().result())).extracting(MeasuredCell::forks).containsExactly(2, 2);
    }

    /** --paced: each fork waits for a line of input, and the end of the input stops the run, resumable. */
    @Test
    void aPacedLoopRunsOneForkPerLineAndStopsAtTheEndOfItsInput() throws Exception {
        RunStore store = RunStore.create(tmp.resolve("run"), plan(FIRST, SECOND));
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        Pacer twoLines = Pacer.lines(new java.io.ByteArrayInputStream(("go\n" + Pacer.WRITE + "\ngo\n")
                        .getBytes(StandardCharsets.UTF_8)),
                new java.io.PrintStream(said, true, StandardCharsets.UTF_8));
        RunLoop.Outcome outcome = run(store, new LoopSettings(OptionalInt.empty(), null, OptionalDouble.empty(), null,
                twoLines));

        assertThat(started).as(console()).containsExactly("none/1 fork 1", "none/2 fork 1");
        assertThat(outcome.forksRemaining()).isEqualTo(2);
        // it said its protocol once, that it was ready before each fork, again after writing the result, and before
        // it found the input's end
        assertThat(said.toString(StandardCharsets.UTF_8).lines())
                .containsExactly(Pacer.PROTOCOL, Pacer.READY, Pacer.READY, Pacer.READY, Pacer.READY);
        assertThat(JmhJson.read(store.layout().result())).extracting(MeasuredCell::forks).containsExactly(1, 1);

        started.clear();
        RunLoop.Outcome rest = run(RunStore.open(store.dir()), LoopSettings.DEFAULT);
        assertThat(started).containsExactly("none/1 fork 2", "none/2 fork 2");
        assertThat(rest.forksRemaining()).isZero();
    }

    /**
     * A paced loop leaves the merged result alone between forks (JMH's writer would delay the other side's fork of an
     * interleaved pair) and writes it when the pacer asks and at the end.
     */
    @Test
    void aPacedLoopWritesTheResultOnlyWhenAskedAndAtItsEnd() throws Exception {
        RunStore store = RunStore.create(tmp.resolve("run"), plan(FIRST, SECOND));
        List<List<Integer>> seen = new ArrayList<>();
        Pacer asking = new Pacer() {
            @Override
            public boolean next(ResultWriter writeResult) throws IOException, BenchException {
                seen.add(forksInResult(store));
                if (seen.size() == 3) {
                    writeResult.write();
                    seen.add(forksInResult(store));
                }
                return true;
            }

            @Override
            public boolean writesOnRequest() {
                return true;
            }
        };
        RunLoop.Outcome outcome = run(store, new LoopSettings(OptionalInt.empty(), null, OptionalDouble.empty(), null,
                asking));

        assertThat(outcome.forksRemaining()).isZero();
        // before forks 1, 2 and 3 nothing was written; asked before fork 3, it held the two landed
        assertThat(seen).containsExactly(List.of(), List.of(), List.of(), List.of(1, 1), List.of(1, 1));
        assertThat(forksInResult(store)).containsExactly(2, 2);
    }

    private static List<Integer> forksInResult(RunStore store) throws BenchException {
        return JmhJson.read(store.layout().result()).stream().map(MeasuredCell::forks).toList();
    }

    @Test
    void aFailingCellIsRecordedAndTheOtherCellStillLands() throws Exception {
        RunStore store = RunStore.create(tmp.resolve("run"), plan(THROWS, FIRST));
        RunLoop.Outcome outcome = run(store, LoopSettings.DEFAULT);

        // the failing cell's second fork is not tried
        assertThat(started).as(console()).containsExactly("throw/1 fork 1", "none/1 fork 1", "none/1 fork 2");
        assertThat(outcome.forksRun()).isEqualTo(3);
        assertThat(outcome.failures()).containsOnlyKeys(THROWS);
        assertThat(outcome.failures().get(THROWS)).contains("injected failure (fault=throw)");
        assertThat(store.layout().failure(THROWS.id(), 1)).isRegularFile();
        assertThat(store.failures().reasons(List.of(THROWS, FIRST))).containsOnlyKeys(THROWS);
        assertThat(store.forks().landed(THROWS)).isEmpty();
        assertThat(store.forks().landed(FIRST)).containsOnlyKeys(1, 2);
        List<MeasuredCell> cells = JmhJson.read(store.layout().result());
        assertThat(cells).singleElement().satisfies(c -> {
            assertThat(c.params()).containsEntry("fault", "none");
            assertThat(c.forks()).isEqualTo(2);
        });
        assertThat(console()).contains("fault=throw fork 1 failed: ");
    }
}
