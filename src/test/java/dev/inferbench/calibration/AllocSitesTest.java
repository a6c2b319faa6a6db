package dev.inferbench.calibration;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Allocation stacks of 10 calls, weighed in bytes, split by the innermost code that is not the JDK's. */
class AllocSitesTest {
    @Test
    void bytesPerCallBySiteAndOwner() {
        Map<String, Long> stacks = new LinkedHashMap<>();
        String run = "bench/Infer.call_[j];dev/inferbench/engine/OrtEngine.run_[j];ai/onnxruntime/OrtSession.run_[j]";
        stacks.put(run + ";long[]_[i]", 480L);
        stacks.put(run + ";ai/onnxruntime/OrtSession$Result.<init>_[j];java/util/LinkedHashMap.<init>_[j];java.util.LinkedHashMap_[i]", 560L);
        stacks.put("bench/Infer.call_[j];dev/inferbench/engine/OrtEngine.run_[j];java/util/ArrayList.<init>_[j];java.util.ArrayList_[i]", 240L);
        stacks.put("java/lang/Thread.run_[j];java.lang.Object[]_[i]", 16L);
        AllocSites s = AllocSites.of(stacks, 10);
        assertThat(s.total()).isCloseTo(129.6, within(1e-9));
        assertThat(s.of(AllocSites.BINDING)).isCloseTo(104.0, within(1e-9));
        assertThat(s.of(AllocSites.HARNESS)).as("an ArrayList our engine made, though in JDK code").isCloseTo(24.0, within(1e-9));
        assertThat(s.rows()).first().satisfies(r -> {
            assertThat(r.type()).isEqualTo("java.util.LinkedHashMap");
            assertThat(r.site()).isEqualTo("ai/onnxruntime/OrtSession$Result.<init>");
            assertThat(r.bytesPerCall()).isCloseTo(56.0, within(1e-9));
        });
        assertThat(s.rows()).last().satisfies(r -> assertThat(r.site()).isEqualTo("(JDK only)"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.print(new PrintStream(out, true, StandardCharsets.UTF_8), "t");
        assertThat(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow())
                .isEqualTo("t: 129.6 B per call (inferbench 24.0, ORT Java binding 104.0, other 1.6)");
    }
}
