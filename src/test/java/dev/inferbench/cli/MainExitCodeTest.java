package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import com.fasterxml.jackson.core.JsonParseException;
import dev.inferbench.BenchException;
import dev.inferbench.run.RunStoppedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exit 1 means "regression" (or cells that failed) to CI: an unexpected failure, checked or not, an {@link Error}
 * included, is 4 with one line, bad input 2, and a file system that refused (a full disk, no permission) 5.
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
    void anIoFailureIsFiveNotARegressionNorBadInput() {
        assertThat(exitWhenThrowing(new IOException("No space left on device"))).isEqualTo(ExitCode.IO_FAILURE);
        assertThat(exitWhenThrowing(new BenchException("cannot create run folder x: x",
                new AccessDeniedException("x")))).isEqualTo(ExitCode.IO_FAILURE);
        assertThat(exitWhenThrowing(new RunStoppedException("cannot write the result of a fork",
                new IOException("No space left on device")))).isEqualTo(ExitCode.IO_FAILURE);
        assertThat(exitWhenThrowing(new UncheckedIOException(new FileSystemException("x", null, "Read-only file system"))))
                .isEqualTo(ExitCode.IO_FAILURE);
        assertThat(lines()).first().isEqualTo("inferbench: java.io.IOException: No space left on device");
    }

    @Test
    void aFileThatIsMissingOrNotWhatItShouldBeIsStillBadInput() {
        assertThat(exitWhenThrowing(new BenchException("cannot read x: x", new NoSuchFileException("x"))))
                .isEqualTo(ExitCode.BAD_INPUT);
        assertThat(exitWhenThrowing(new BenchException("x is not valid JSON", new JsonParseException(null, "bad"))))
                .isEqualTo(ExitCode.BAD_INPUT);
        assertThat(exitWhenThrowing(new BenchException("x ended early", new EOFException()))).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(exitWhenThrowing(new RunStoppedException("interrupted", new InterruptedException())))
                .isEqualTo(ExitCode.FAILED);
    }

    @Test
    void anErrorIsFourInOneLine() {
        assertThat(exitWhenThrowing(new NoClassDefFoundError("dev/inferbench/Gone"))).isEqualTo(ExitCode.INTERNAL_ERROR);
        assertThat(lines()).containsExactly("inferbench: java.lang.NoClassDefFoundError: dev/inferbench/Gone");
    }

    @Test
    void aBugIsFourAndBadInputTwo() {
        assertThat(exitWhenThrowing(new IllegalStateException("bug"))).isEqualTo(ExitCode.INTERNAL_ERROR);
        assertThat(exitWhenThrowing(new BenchException("bad"))).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(lines()).containsExactly("inferbench: java.lang.IllegalStateException: bug", "inferbench: bad");
    }
}
