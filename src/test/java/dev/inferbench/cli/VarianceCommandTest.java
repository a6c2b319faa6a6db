package dev.inferbench.cli;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** variance --fork-seconds: the A/B budget priced at a fork cost the run did not see (a compare-commits pair). */
class VarianceCommandTest {
    private static Path runA() throws URISyntaxException {
        return Path.of(VarianceCommandTest.class.getResource("/report/run-a").toURI());
    }

    private static String run(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
        new VarianceCommand().run(List.of(args), ps, ps);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aCheaperForkBuysMoreForksAndCatchesASmallerSlowdown() throws Exception {
        String dear = run(runA().toString(), "--ab", "--budget", "10m", "--fork-seconds", "20");
        String cheap = run(runA().toString(), "--ab", "--budget", "10m", "--fork-seconds", "5s");
        assertThat(dear).contains("fork wall time (given) 20.0 s");
        assertThat(cheap).contains("fork wall time (given) 5.0 s");
        assertThat(forks(cheap)).isGreaterThan(forks(dear));
    }

    /** The forks per side of the first cell's A/B line. */
    private static int forks(String out) {
        String line = out.lines().filter(l -> l.contains("-> A/B with")).findFirst().orElseThrow();
        return Integer.parseInt(line.replaceAll(".*A/B with (\\d+) forks.*", "$1"));
    }

    @Test
    void aForkCostThatIsNoDurationIsOneLine() {
        assertThatThrownBy(() -> run(runA().toString(), "--fork-seconds", "0"))
                .isInstanceOf(BenchException.class)
                .hasMessage("--fork-seconds '0' is not a positive number of seconds; expected e.g. 7.5");
    }
}
