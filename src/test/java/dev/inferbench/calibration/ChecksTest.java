package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one-JVM checks by name: the child's entry point exists, and bad arguments are refused before any JVM starts. */
class ChecksTest {
    /** No jar: a check that got as far as starting its JVM would fail with another message. */
    private static final Path NO_JAR = Path.of("no-such.jar");

    @Test
    void theNamedEntryPointIsAClassWithAMain() throws Exception {
        Method main = Class.forName(Checks.MAIN).getMethod("main", String[].class);
        assertThat(Modifier.isStatic(main.getModifiers())).isTrue();
        assertThat(Checks.ARGUMENTS).containsOnlyKeys(Checks.AID, Checks.STEP, Checks.TAIL, Checks.ALLOC, Checks.OPEN_LOOP_PATH,
                Checks.MEMORY_PLATEAU, Checks.KILL_RESUME, Checks.TPOT_CROSSCHECK);
        assertThat(Checks.isCheck("aid-check")).isTrue();
        assertThat(Checks.isCheck("--fast")).isFalse();
    }

    @Test
    void openLoopPathTakesAWholeNumberOfRounds() {
        for (List<String> bad : List.of(List.of("0"), List.of("two"), List.of("2", "3"), List.of("-1"))) {
            assertThatThrownBy(() -> Checks.run(NO_JAR, Checks.OPEN_LOOP_PATH, bad)).as(bad.toString())
                    .isInstanceOf(BenchException.class).hasMessageContaining("is not a whole number of 1 or more");
        }
    }

    @Test
    void allocPerCallTakesAModel() {
        for (List<String> bad : List.of(List.<String>of(), List.of("m", "1", "ort", "more"))) {
            assertThatThrownBy(() -> Checks.run(NO_JAR, Checks.ALLOC, bad)).as(bad.toString())
                    .isInstanceOf(BenchException.class)
                    .hasMessage("calibrate alloc-per-call takes MODEL [BATCH=1] [ENGINE=ort]; expected e.g. calibrate"
                            + " alloc-per-call mlp-tiny");
        }
    }
}
