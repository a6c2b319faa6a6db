package dev.inferbench.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --tail} is part of the run's plan: a run stopped after its first fork and resumed without the flag records
 * the slow calls of the forks it adds, as it did of the first.
 */
class TailResumeIT {
    @TempDir
    Path cwd;

    @Test
    void aResumedRunKeepsRecordingTheSlowCalls() throws Exception {
        Jar.Run first = Jar.run(cwd, "InferenceBenchmark --tail -p engine=stub -p model=mlp-tiny -p batchSize=1"
                + " -p threads=1 -f 2 -wi 0 -i 1 -r 300ms --max-forks 1" + Jar.NO_SPARES + " --run-dir run"
                + " -jvmArgsAppend -Dinferbench.stub=cpu=1ms");
        assertThat(first.code()).as(first.out() + first.err()).isZero();
        Path run = cwd.resolve("run");
        assertThat(new ObjectMapper().readTree(run.resolve("plan.json").toFile()).path("tail").asBoolean()).isTrue();
        assertThat(slowCallFiles(run)).containsExactly("fork-1");

        // the stub engine is named again, as a resumed plan's engine outside the folder must be, and no spare forks
        // (a loop setting, not the plan's) on a busy machine either; --tail is not given again
        Jar.Run resumed = Jar.run(cwd, "--resume run -p engine=stub" + Jar.NO_SPARES);
        assertThat(resumed.code()).as(resumed.out() + resumed.err()).isZero();
        assertThat(slowCallFiles(run)).containsExactly("fork-1", "fork-2");
        assertThat(resumed.out()).contains("tail    InferenceBenchmark.infer model=mlp-tiny engine=stub batchSize=1: p99");
    }

    /** The fork folders under tail/ that hold a slow-calls.json. */
    private static List<String> slowCallFiles(Path run) throws Exception {
        try (Stream<Path> s = Files.walk(run.resolve("tail"))) {
            return s.filter(p -> p.getFileName().toString().equals("slow-calls.json"))
                    .map(p -> p.getParent().getFileName().toString()).sorted().toList();
        }
    }
}
