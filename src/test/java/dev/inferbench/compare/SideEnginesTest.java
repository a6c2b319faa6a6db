package dev.inferbench.compare;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each side's engines come from its own run's environment.json; a comparison says which differ, and only then. */
class SideEnginesTest {
    @TempDir
    Path dir;

    private Path run(String name, String engines) throws Exception {
        Path run = Files.createDirectories(dir.resolve(name));
        Files.writeString(run.resolve("environment.json"), "{\"cpu\": {\"model\": \"x\"}, \"engines\": " + engines + "}");
        return run;
    }

    @Test
    void anUpgradeIsNamedWithWhatStayedTheSame() throws Exception {
        Path base = run("base", "{\"onnxruntime\": \"1.22.0\", \"djl\": \"0.36.0\"}");
        Path head = run("head", "{\"onnxruntime\": \"1.29.0\", \"djl\": \"0.36.0\"}");
        SideEngines e = SideEngines.of(base, head);
        assertThat(e.base()).containsExactly(Map.entry("onnxruntime", "1.22.0"), Map.entry("djl", "0.36.0"));
        assertThat(e.differ()).isTrue();
        assertThat(e.line()).isEqualTo("engines differ: onnxruntime 1.22.0 -> 1.29.0 (djl 0.36.0 on both sides),"
                + " as each side's run loaded them (environment.json)");
    }

    @Test
    void theSameEnginesOrASideWithoutARecordSayNothing() throws Exception {
        Path base = run("base", "{\"onnxruntime\": \"1.29.0\"}");
        assertThat(SideEngines.of(base, run("head", "{\"onnxruntime\": \"1.29.0\"}")).line()).isEmpty();
        Path jmhFile = Files.writeString(dir.resolve("jmh.json"), "[]");
        SideEngines oneSided = SideEngines.of(base, jmhFile);
        assertThat(oneSided.head()).isEmpty();
        assertThat(oneSided.differ()).isFalse();
    }
}
