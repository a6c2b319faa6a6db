package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A step of native code in a JVM of its own: its crash is one line and a crash log in the folder, not the caller's. */
class ChildJvmTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private boolean run(String step) throws BenchException {
        ChildJvm.Request r = new ChildJvm.Request(step, List.of(new Cell("a.B.c", "sample", Map.of("model", "m"))),
                null, tmp.toString());
        return ChildJvm.run(CrashingStep.class.getName(), r, "the " + step + " pass", tmp.resolve("crashes"), out);
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aStepThatEndsSaysSoAndItsLinesReachTheConsole() throws BenchException {
        assertThat(run("ok")).isTrue();
        assertThat(printed()).contains("step ok started").contains("done in " + tmp);
    }

    @Test
    void aNativeCrashIsOneLineWithItsLogInTheCrashFolder() throws Exception {
        assertThat(run("segv")).isFalse();
        List<String> ours = printed().lines().filter(l -> l.startsWith("inferbench: ")).toList();
        assertThat(ours).singleElement().asString().startsWith("inferbench: the segv pass crashed with exit 134 (SIGSEGV")
                .contains("the run goes on without it; its crash log is " + tmp.resolve("crashes"));
        try (Stream<Path> s = Files.list(tmp.resolve("crashes"))) {
            assertThat(s.map(p -> p.getFileName().toString())).anyMatch(n -> n.matches("hs_err_pid\\d+\\.log"));
        }
        try (Stream<Path> s = Files.list(Path.of("."))) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("hs_err_pid"));
        }
    }

    @Test
    void aKilledStepIsOneLineAndTheCallerGoesOn() throws BenchException {
        assertThat(run("segv")).isFalse();
        assertThat(run("kill")).isFalse();
        assertThat(printed()).contains("inferbench: the kill pass crashed with exit 137; the run goes on without it\n");
    }

    @Test
    void aRefusalIsTheChildsOneLine() {
        assertThatThrownBy(() -> run("refuse")).isInstanceOf(BenchException.class)
                .hasMessage("x.npy is not a .npy array; expected a .npy file");
    }
}
