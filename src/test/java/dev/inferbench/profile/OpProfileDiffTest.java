package dev.inferbench.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The diff of two recorded ORT profiles (batch 1 and batch 4 of a tiny ResNet) as two runs of one cell. */
class OpProfileDiffTest {
    @TempDir
    Path results;

    private Path run(String name, String profile, String... cells) throws Exception {
        Path run = results.resolve(name);
        for (String cell : cells) {
            Path dir = Files.createDirectories(run.resolve("op-profile").resolve(cell));
            try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve("ops.collapsed")), true, StandardCharsets.UTF_8)) {
                OpTable.writeCollapsed(OrtProfile.read(Path.of("src/test/resources/profile/" + profile)).lastRuns(2), out);
            }
        }
        return run;
    }

    @Test
    void diffsCommonCellsAndNamesTheOthers() throws Exception {
        Path a = run("A", "ort-profile-resnet-tiny-b1.json", "common", "gone");
        Path b = run("B", "ort-profile-resnet-tiny-b4.json", "common", "new");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int written = OpProfileDiff.diff(a, b, results.resolve("diff"), new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(written).isEqualTo(1);
        Path html = results.resolve("diff/common/diff-ops.html");
        assertThat(html).content().contains("<html").contains("Conv").contains("model_run"); // the converter prefix-compresses frame names
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("operator profile only in " + a + ": gone")
                .contains("operator profile only in " + b + ": new")
                .contains(html.toString());
    }
}
