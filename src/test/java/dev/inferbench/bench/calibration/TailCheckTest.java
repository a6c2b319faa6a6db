package dev.inferbench.bench.calibration;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** calibrate tail-check's arguments: each wrong one refused with exit 2 and one line, before any model is loaded. */
class TailCheckTest {
    @Test
    void badArgumentsAreRefusedInOneLine() throws Exception {
        PrintStream was = System.err;
        for (String[] args : new String[][]{{}, {"mlp-tiny", "0"}, {"mlp-tiny", "1", "3"}, {"mlp-tiny", "x"},
            {"a", "1", "600", "more"}, {"--jfr"}, {"mlp-tiny", "0", "--jfr"}, {"a", "1", "600", "more", "--jfr"}}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int code;
            try {
                code = TailCheck.check(args);
            } finally {
                System.setErr(was);
            }
            String said = err.toString(StandardCharsets.UTF_8);
            assertThat(code).as(String.join(" ", args)).isEqualTo(2);
            assertThat(said.lines().count()).as(said).isEqualTo(1);
        }
    }
}
