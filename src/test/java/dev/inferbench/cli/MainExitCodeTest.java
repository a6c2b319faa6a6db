package dev.inferbench.cli;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exit 1 means "regression" (or cells that failed) to CI: an unexpected failure, checked or not, an {@link Error}
 * included, is 4 with one line, and bad input 2.
 */
class MainExitCodeTest {
    private static final String NAME = "test-failure";
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void removeTheCommand() {
        Main.SUBCOMMANDS.remove(NAME);
    }

    /** A subcommand that throws what it is given, checked or not. */
    private int exitWhenThrowing(Throwable t) {
        Main.SUBCOMMANDS.put(NAME, () -> new Subcommand() {
            @Override
            public String summary() {
                return NAME;
            }

            @Override
            public String usage() {
                return NAME;
            }

            @Override
            public int run(List<String> args, PrintStream out, PrintStream e) {
                return MainExitCodeTest.<RuntimeException>sneaky(t);
            }
        });
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new Main(new PrintStream(new ByteArrayOutputStream()), e).run(new String[]{NAME});
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> int sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private List<String> lines() {
        return err.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void anIoFailureIsFourNotARegression() {
        assertThat(exitWhenThrowing(new IOException("disk gone"))).isEqualTo(Main.INTERNAL_ERROR);
        assertThat(lines()).containsExactly("inferbench: java.io.IOException: disk gone");
    }

    @Test
    void anErrorIsFourInOneLine() {
        assertThat(exitWhenThrowing(new NoClassDefFoundError("dev/inferbench/Gone"))).isEqualTo(Main.INTERNAL_ERROR);
        assertThat(lines()).containsExactly("inferbench: java.lang.NoClassDefFoundError: dev/inferbench/Gone");
    }

    @Test
    void aBugIsFourAndBadInputTwo() {
        assertThat(exitWhenThrowing(new IllegalStateException("bug"))).isEqualTo(Main.INTERNAL_ERROR);
        assertThat(exitWhenThrowing(new BenchException("bad"))).isEqualTo(Main.BAD_INPUT);
        assertThat(lines()).containsExactly("inferbench: java.lang.IllegalStateException: bug", "inferbench: bad");
    }
}
