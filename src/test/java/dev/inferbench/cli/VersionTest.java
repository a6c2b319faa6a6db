package dev.inferbench.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --version} says what the build was made from: the pom's versions and the commit, nothing left unfilled. */
class VersionTest {
    private static String pom(String tag) throws Exception {
        Matcher m = Pattern.compile("<" + Pattern.quote(tag) + ">([^<]+)</").matcher(Files.readString(Path.of("pom.xml")));
        assertThat(m.find()).as(tag).isTrue();
        return m.group(1);
    }

    @Test
    void versionPrintsThePomsVersionsAndTheCommit() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new Main(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(new String[]{"--version"});
        assertThat(exit).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("inferbench " + Pattern.quote(pom("version"))
                + " \\(commit ([0-9a-f]{12}|unknown)(, with local changes)?\\)");
        assertThat(lines.get(1)).startsWith("JMH " + pom("jmh.version") + ", ONNX Runtime " + pom("onnxruntime.version")
                + ", DJL " + pom("djl.version") + " (PyTorch " + pom("pytorch.version") + "), Java ")
                .doesNotContain("${", "unknown");
    }
}
