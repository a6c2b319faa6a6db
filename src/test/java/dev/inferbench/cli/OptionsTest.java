package dev.inferbench.cli;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one options table: what it reads, what it passes on, what it refuses, and the help it prints. */
class OptionsTest {
    private final Options table = new Options("demo", "RUN").row("RUN", "a run folder");
    private final Options.Flag<Duration> budget = table.value("--budget", "D", Options.DURATION, Duration.ofMinutes(5),
            "the time to plan for");
    private final Options.Flag<Integer> count = table.value("--count", "N", Options.whole(1, "comparisons, e.g. 8"),
            1, "comparisons to make");
    private final Options.Flag<String> only = table.value("--only", "TEXT", Options.TEXT, null, "rows naming TEXT")
            .repeatable();
    private final Options.Flag<Boolean> fast = table.toggle("--fast", "only the quick rows");

    @Test
    void readsValuesDefaultsTogglesAndOperandsInOrder() throws BenchException {
        Options.Parsed p = table.parse(List.of("a", "--only", "x", "--budget", "90s", "b", "--only", "y"));
        assertThat(p.get(budget)).isEqualTo(Duration.ofSeconds(90));
        assertThat(p.get(count)).isEqualTo(1);
        assertThat(p.has(count)).isFalse();
        assertThat(p.get(fast)).isFalse();
        assertThat(p.all(only)).containsExactly("x", "y");
        assertThat(p.get(only)).isEqualTo("y");
        assertThat(p.operands()).containsExactly("a", "b");
        assertThat(table.parse(List.of("--fast")).get(fast)).isTrue();
    }

    @Test
    void refusesInOneLineNamingTheFlagAndWhatWasExpected() {
        assertThatThrownBy(() -> table.parse(List.of("--bogus"))).isInstanceOf(BenchException.class)
                .hasMessage("unknown option '--bogus' for demo; expected: demo RUN [--budget D] [--count N]"
                        + " [--only TEXT]... [--fast]");
        assertThatThrownBy(() -> table.parse(List.of("--budget"))).hasMessage("--budget needs a value; expected a"
                + " duration, e.g. 20m");
        assertThatThrownBy(() -> table.parse(List.of("--budget", "--fast")))
                .hasMessage("--budget needs a value; expected a duration, e.g. 20m");
        assertThatThrownBy(() -> table.parse(List.of("--budget", "soon"))).hasMessage("--budget 'soon' is not a"
                + " duration; expected e.g. 90s, 10m, 1h");
        assertThatThrownBy(() -> table.parse(List.of("--count", "0"))).hasMessage("--count '0' is not a whole number"
                + " >= 1; expected comparisons, e.g. 8");
    }

    @Test
    void aPassingTableKeepsOtherOptionsInOrderAndPassesOnWhatItIsToldTo() throws BenchException {
        Options jmh = new Options("side", "[JMH args]").passing();
        Options.Flag<List<String>> head = jmh.value("--head-args", "A", Options.WORDS, List.of(), "head only");
        Options.Flag<Boolean> offline = jmh.toggle("--offline", "mvn -o").passedOn();
        Options.Flag<String> pin = jmh.value("--pin", "CPUS", Options.TEXT, null, "CPUs")
                .optional(v -> Character.isDigit(v.charAt(0)), "0");
        Options.Parsed p = jmh.parse(List.of("-p", "model=x", "--head-args", "-jvmArgsAppend -Dx=1", "--offline",
                "-f", "3", "--pin", "Infer"));
        assertThat(p.operands()).containsExactly("-p", "model=x", "--offline", "-f", "3", "Infer");
        assertThat(p.get(head)).containsExactly("-jvmArgsAppend", "-Dx=1");
        assertThat(p.get(offline)).isTrue();
        assertThat(p.get(pin)).isEqualTo("0");
        assertThat(jmh.parse(List.of("--pin", "0-3")).get(pin)).isEqualTo("0-3");
        assertThat(jmh.parse(List.of("--pin")).get(pin)).isEqualTo("0");
        assertThat(jmh.parse(List.of()).get(pin)).isNull();
    }

    @Test
    void theHelpListsEveryFlagWithItsLabelWrappedInAColumn() {
        Options wide = new Options("wide", "");
        wide.value("--a-rather-long-flag-name", "VALUE", Options.TEXT, null, "word ".repeat(60).strip());
        String list = table.list() + wide.list();
        assertThat(list).contains("  RUN          a run folder\n", "  --budget D   the time to plan for\n",
                "  --only TEXT  rows naming TEXT\n", "  --fast       only the quick rows\n");
        assertThat(list).contains("  --a-rather-long-flag-name VALUE\n" + " ".repeat(28) + "word word");
        assertThat(list.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(116));
        assertThat(table.usage("About.\n", "Exit 0.\n"))
                .startsWith("usage: java -jar target/benchmarks.jar demo RUN [--budget D]").endsWith("Exit 0.\n");
    }
}
