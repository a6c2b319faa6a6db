package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.run.Plan;
import dev.inferbench.run.Shard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a resumed plan may ask of the machine that resumes it, and how the user vouches for the rest. */
class FolderTrustTest {
    private static final Path DIR = Path.of("/tmp/received-run");
    private static final Set<String> MODELS = Set.of("resnet50", "mlp-tiny");

    private static Plan plan(String model, String config, String... args) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("model", model);
        params.put("batchSize", "1");
        List<Cell> cells = List.of(new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", params));
        return Plan.of(List.of(args), config, 2, new Plan.Settings(null, null, null, null), Shard.WHOLE, cells,
                List.of());
    }

    private static void check(Plan plan, String... given) throws BenchException {
        FolderTrust.check(DIR, plan, List.of(given), false, Optional.empty(), MODELS);
    }

    @Test
    void aPlanThatKeepsDisturbedForksIsAccepted() {
        assertThatCode(() -> check(plan("resnet50", null, "-f", "4").keepingDisturbed())).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-jvm|/bin/sh", "-jvmArgsAppend|-javaagent:/tmp/a.jar", "-jvmArgs|-agentpath:/x.so",
            "-jvmArgsPrepend|-agentlib:jdwp=transport=dt_socket,server=y", "-jvmArgsAppend|-XX:OnError=sh",
            "-jvmArgsAppend|-Donnxruntime.native.onnxruntime.path=/tmp/evil.so", "-jvmArgsAppend|-cp",
            "-jvmArgsAppend|-Xlog:gc:file=/etc/x", "-prof|async:libPath=/tmp/evil.so", "-prof|com.evil.Profiler",
            "-prof|jfr:dir=/tmp", "-o|/etc/passwd", "-rff|../outside.json"})
    void optionsThatRunOrWriteElsewhereAreRefused(String option) {
        String[] pair = option.split("\\|");
        assertThatThrownBy(() -> check(plan("resnet50", null, pair[0], pair[1])))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("plan.json asks for " + pair[0])
                .hasMessageContaining("--trust-folder")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void plainSettingsPass() {
        assertThatCode(() -> check(plan("resnet50", null, "-p", "model=resnet50", "-f", "3", "-i", "2", "-r", "1s",
                "-jvmArgsAppend", "-Xmx2g -XX:+UseSerialGC -XX:MaxInlineLevel=15 -Dinferbench.slowdown=5",
                "-prof", "gc", "-prof", "dev.inferbench.metrics.CpuProfiler", "-rff",
                DIR.resolve("copy.json").toString()))).doesNotThrowAnyException();
    }

    @Test
    void anOptionGivenAgainOnTheCommandLineIsTheUsersOwn() {
        Plan p = plan("resnet50", null, "-jvm", "/opt/jdk/bin/java", "-o", "/tmp/log.txt");
        assertThatThrownBy(() -> check(p, "-jvm", "/opt/jdk/bin/java")).hasMessageContaining("-o /tmp/log.txt");
        assertThatCode(() -> check(p, "-jvm", "/opt/jdk/bin/java", "-o", "/tmp/log.txt")).doesNotThrowAnyException();
        assertThatThrownBy(() -> check(p, "-jvm", "/other/java", "-o", "/tmp/log.txt")).hasMessageContaining("-jvm");
        assertThatCode(() -> FolderTrust.check(DIR, p, List.of(), true, Optional.empty(), MODELS))
                .doesNotThrowAnyException();
    }

    @Test
    void aModelOrPropertiesFileOutsideTheFolderIsRefused() {
        assertThatThrownBy(() -> check(plan("/home/someone/model.onnx", null)))
                .hasMessageContaining("the file /home/someone/model.onnx (model, outside the folder)");
        assertThatCode(() -> check(plan("/home/someone/model.onnx", null), "-p", "model=x.onnx,/home/someone/model.onnx"))
                .doesNotThrowAnyException();
        assertThatCode(() -> check(plan(DIR.resolve("m.onnx").toString(), null))).doesNotThrowAnyException();
        assertThatThrownBy(() -> check(plan("resnet50", "/elsewhere/benchmarks.properties")))
                .hasMessageContaining("the properties file /elsewhere/benchmarks.properties");
    }

    @Test
    void aResumeTakesOnlyForksAndThePlansOwnOptions() {
        Plan p = plan("resnet50", null, "-jvm", "/opt/jdk/bin/java", "-p", "model=resnet50");
        assertThat(FolderTrust.notRepeated(List.of("-f", "10", "-jvm", "/opt/jdk/bin/java", "-p", "model=resnet50"), p))
                .isEmpty();
        List<String> extra = new ArrayList<>(List.of("-i", "3", "-jvm", "/other"));
        assertThat(FolderTrust.notRepeated(extra, p)).containsExactly("-i", "3", "-jvm", "/other");
    }
}
