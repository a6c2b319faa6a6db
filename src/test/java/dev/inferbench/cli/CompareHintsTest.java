package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.BenchException;
import dev.inferbench.compare.CellKey;
import dev.inferbench.compare.CellResults;
import dev.inferbench.compare.Comparer;
import dev.inferbench.compare.ForkStamp;
import dev.inferbench.compare.MetricSeries;
import dev.inferbench.report.CompareTable;
import dev.inferbench.results.RunLayout;
import dev.inferbench.stats.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every hint compare prints names an option of the command that takes it: compare's own, the run's (JMH's -f),
 * or compare-commits's. Each option is parsed by that command's own parser, and every option found in
 * compare's output must be one checked here, so a new hint with an option nobody takes fails.
 */
class CompareHintsTest {
    /** An option in running text: "-v", "--keep-disturbed", not the dash inside "mlp-tiny" or "-1.4%". */
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--?[a-z][a-z-]*");

    private enum Command { COMPARE, RUN, SCRIPT }

    /** A hint as compare prints it, the command it names and the option as that command takes it. */
    private record Hint(String text, Command command, List<String> option) {
    }

    private static final List<Hint> HINTS = List.of(
            new Hint("; -v shows all", Command.COMPARE, List.of("-v")),
            new Hint("exit 3 (--inconclusive pass to let it pass)", Command.COMPARE, List.of("--inconclusive", "pass")),
            new Hint("(--missing regression to fail where HEAD lacks", Command.COMPARE, List.of("--missing", "regression")),
            new Hint("compare with --keep-disturbed to keep", Command.COMPARE, List.of("--keep-disturbed")),
            new Hint("rerun each side with -f 2 or more (java -jar target/benchmarks.jar -f N)", Command.RUN,
                    List.of("-f", "2")),
            new Hint("rerun with compare-commits --turns", Command.SCRIPT, List.of("--turns")),
            new Hint("--turns (the two sides' iterations a second apart), or with more --forks", Command.SCRIPT,
                    List.of("--forks", "20")),
            new Hint("rerun compare-commits with more --forks, or more iterations a fork (-i N)",
                    Command.SCRIPT, List.of("-i", "5")),
            new Hint("rerun compare-commits --turns with shorter turns and more of them (-i 20 -r 100ms), both sides"
                    + " on one CPU and another kept busy, the trimmed mean gated (--pin 1 --keep-busy 0 --gate trimmed)",
                    Command.SCRIPT, List.of("--turns")),
            new Hint("more of them (-i 20 -r 100ms)", Command.SCRIPT, List.of("-r", "100ms")),
            new Hint("the trimmed mean gated (--pin 1", Command.SCRIPT, List.of("--pin", "1")),
            new Hint("(--pin 1 --keep-busy 0", Command.SCRIPT, List.of("--keep-busy", "0")),
            new Hint("--keep-busy 0 --gate trimmed)", Command.SCRIPT, List.of("--gate", "trimmed")),
            new Hint("the turns were already short; rerun with both sides on one CPU and another kept busy, the"
                    + " trimmed mean gated (--pin 1 --keep-busy 0 --gate trimmed), which leaves out the stalls of"
                    + " milliseconds", Command.SCRIPT, List.of("--pin", "1")),
            new Hint("the turns were already short; rerun compare-commits with a longer --budget", Command.SCRIPT,
                    List.of("--budget", "20m")));

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int compare(String... args) {
        List<String> a = new ArrayList<>(List.of("compare"));
        a.addAll(List.of(args));
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true,
                StandardCharsets.UTF_8)).run(a.toArray(String[]::new));
    }

    private static Path runFolder(Path dir, String name, Consumer<ArrayNode> change) throws IOException {
        Path run = Files.createDirectories(dir.resolve(name));
        ObjectMapper json = new ObjectMapper();
        ArrayNode cells = (ArrayNode) json.readTree(Path.of("src/test/resources/jmh/sample-time.json").toFile());
        change.accept(cells);
        json.writeValue(RunLayout.of(run).result().toFile(), cells);
        return run;
    }

    /** The cells as if their forks had taken turns with a partner's (compare-commits --turns). */
    private static ArrayNode tookTurns(ArrayNode cells) {
        cells.forEach(c -> ((ObjectNode) c).putArray("jvmArgs").add("-Dinferbench.duet=/tmp/duet:base:turns"));
        return cells;
    }

    /** The same calls read in nanoseconds: a cell of calls well under 0.1 ms. */
    private static void microseconds(ArrayNode cells) {
        cells.forEach(c -> ((ObjectNode) c.get("primaryMetric")).put("scoreUnit", "ns/op"));
    }

    /** Measured iterations of {@code time} each (JMH's words: "1 s", "100 ms"). */
    private static ArrayNode iterations(ArrayNode cells, String time) {
        cells.forEach(c -> ((ObjectNode) c).put("measurementTime", time));
        return cells;
    }

    /** Only each cell's first fork: too few for an interval. */
    private static void oneFork(ArrayNode cells) {
        for (JsonNode c : cells) {
            ((ObjectNode) c).put("forks", 1);
            List<JsonNode> metrics = new ArrayList<>(List.of(c.get("primaryMetric")));
            c.get("secondaryMetrics").forEach(metrics::add);
            for (JsonNode m : metrics) {
                for (String raw : List.of("rawData", "rawDataHistogram")) {
                    if (m.get(raw) instanceof ArrayNode forks) {
                        while (forks.size() > 1) {
                            forks.remove(forks.size() - 1);
                        }
                    }
                }
            }
        }
    }

    /** Everything compare printed on both streams for the comparisons that give every kind of hint. */
    private String everyHint(Path dir) throws IOException, BenchException {
        Path a = runFolder(dir, "a", c -> { });
        Path b = runFolder(dir, "b", c -> { });
        Path lost = runFolder(dir, "lost", c -> c.remove(1));
        Path turnsA = runFolder(dir, "turns-a", CompareHintsTest::tookTurns);
        Path turnsB = runFolder(dir, "turns-b", CompareHintsTest::tookTurns);
        Path usA = runFolder(dir, "us-a", c -> microseconds(iterations(tookTurns(c), "1 s")));
        Path usB = runFolder(dir, "us-b", c -> microseconds(iterations(tookTurns(c), "1 s")));
        Path shortA = runFolder(dir, "short-a", c -> microseconds(iterations(tookTurns(c), "100 ms")));
        Path shortB = runFolder(dir, "short-b", c -> microseconds(iterations(tookTurns(c), "100 ms")));
        Path oneA = runFolder(dir, "one-a", CompareHintsTest::oneFork);
        Path oneB = runFolder(dir, "one-b", CompareHintsTest::oneFork);
        assertThat(compare(a.toString(), b.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(a.toString(), lost.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(turnsA.toString(), turnsB.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(usA.toString(), usB.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(shortA.toString(), shortB.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(shortA.toString(), shortB.toString(), "--fail-on-regression", "--gate", "trimmed"))
                .isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(oneA.toString(), oneB.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        assertThat(compare(oneA.toString(), b.toString(), "--fail-on-regression")).isEqualTo(ExitCode.UNDECIDED);
        return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8) + lostPairs();
    }

    /** The line of a comparison whose forks took turns but lost their pairs to the gap rule and to disturbance. */
    private static String lostPairs() throws BenchException {
        Instant t0 = Instant.parse("2026-11-25T10:00:00Z");
        List<ForkStamp> base = new ArrayList<>();
        List<ForkStamp> head = new ArrayList<>();
        double[][] forks = new double[3][];
        for (int k = 0; k < 3; k++) {
            Instant start = t0.plusSeconds(30L * k);
            base.add(new ForkStamp(k, start, start.plusSeconds(5)));
            Instant next = start.plusSeconds(k == 0 ? 13 : 5);
            head.add(new ForkStamp(k, next, next.plusSeconds(5), k == 1));
            forks[k] = new double[]{20 + k};
        }
        CellKey key = new CellKey("b.InferenceBenchmark.infer", Map.of("batchSize", "1"));
        Map<String, MetricSeries> m = Map.of("time", MetricSeries.mean("time", "ms/op", forks));
        return CompareTable.text(Comparer.compare(List.of(new CellResults(key, "avgt", m, base)),
                List.of(new CellResults(key, "avgt", m, head)), 0.03, Verdict.CONFIDENCE));
    }

    @Test
    void everyHintIsPrintedAndEveryOptionInThemIsChecked(@TempDir Path dir) throws Exception {
        String printed = everyHint(dir);
        assertThat(printed).doesNotContain("use --turns").doesNotContain("with --duet");
        for (Hint h : HINTS) {
            assertThat(printed).as("printed somewhere").contains(h.text());
            assertThat(h.text()).contains(h.option().get(0));
        }
        Set<String> found = new TreeSet<>();
        Matcher m = OPTION.matcher(printed.lines().filter(l -> !l.contains("±")) // the table's rows and header
                .collect(Collectors.joining("\n")));
        while (m.find()) {
            found.add(m.group());
        }
        found.remove("-jar"); // java's, in "java -jar target/benchmarks.jar": how the run is started
        Set<String> checked = HINTS.stream().map(h -> h.option().get(0)).collect(Collectors.toSet());
        // a cause, not a hint: it is printed under the option that asked for it
        checked.add("--fail-on-regression");
        assertThat(checked).containsAll(found);
    }

    @Test
    void compareTakesTheOptionsItsHintsName(@TempDir Path dir) throws IOException {
        Path a = runFolder(dir, "a", c -> { });
        for (Hint h : HINTS.stream().filter(h -> h.command() == Command.COMPARE).toList()) {
            List<String> args = new ArrayList<>(List.of(a.toString(), a.toString()));
            args.addAll(h.option());
            assertThat(compare(args.toArray(String[]::new))).as(h.text() + ": " + err).isNotEqualTo(ExitCode.BAD_INPUT);
        }
    }

    @Test
    void theRunTakesForksAndIterationsAsJmhOptions() throws Exception {
        // inferbench's own flags leave -f and -i to JMH's parser, which compare-commits hands them to as well
        List<String> jmh = RunFlags.extract(List.of("-f", "2", "-i", "5")).jmhArgs();
        CommandLineOptions options = new CommandLineOptions(jmh.toArray(String[]::new));
        assertThat(options.getForkCount().get()).isEqualTo(2);
        assertThat(options.getMeasurementIterations().get()).isEqualTo(5);
    }

    /** Whether JMH's own parser takes the options and reads each one's value (what compare-commits hands on). */
    private static boolean jmhTakes(List<String> option) {
        try {
            CommandLineOptions o = new CommandLineOptions(option.toArray(String[]::new));
            return switch (option.get(0)) {
                case "-i" -> o.getMeasurementIterations().hasValue();
                case "-r" -> o.getMeasurementTime().hasValue();
                default -> false;
            };
        } catch (org.openjdk.jmh.runner.options.CommandLineOptionException e) {
            return false;
        }
    }

    @Test
    void compareCommitsTakesTheOptionsItsHintsName() throws Exception {
        for (Hint h : HINTS.stream().filter(h -> h.command() == Command.SCRIPT).toList()) {
            List<String> args = new java.util.ArrayList<>(List.of(".", "."));
            args.addAll(h.option());
            boolean own = !CompareCommitsCommand.parse(args).jmhArgs().contains(h.option().get(0));
            // an option compare-commits does not parse goes to JMH on both sides
            assertThat(own || jmhTakes(h.option())).as(h.option().get(0)).isTrue();
        }
        assertThat(CompareCommitsCommand.parse(List.of(".", ".", "--gate", "trimmed")).gate()).containsExactly("trimmed");
        assertThat(CompareCommitsCommand.parse(List.of(".", ".")).gate()).containsExactly(Comparer.PRIMARY);
        // --turns is its own, refused only beside --duet
        assertThat(CompareCommitsCommand.parse(List.of(".", ".", "--turns")).turns()).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CompareCommitsCommand.parse(List.of(".", ".", "--turns",
                "--duet"))).hasMessage("--duet and --turns are two ways to run a pair; give one");
    }
}
