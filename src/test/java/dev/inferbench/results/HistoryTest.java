package dev.inferbench.results;

import java.nio.file.StandardCopyOption;
import dev.inferbench.BenchException;
import dev.inferbench.report.Trend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs filed by environment and commit, in commit order, and the trend drawn from them. */
class HistoryTest {
    private static final Path RESULT = Path.of("src/test/resources/report/run-a/jmh-result.json");

    @TempDir
    Path dir;

    @Test
    void runsAreFiledByEnvironmentAndCommitAndTheTrendFollowsEachCell() throws Exception {
        Path history = dir.resolve("history");
        History.append(run("r2", "bbbbbbb222", "2026-11-23T10:00:00Z", "Test CPU", false), history);
        History.append(run("r1", "aaaaaaa111", "2026-11-22T10:00:00Z", "Test CPU", false), history);
        History.append(run("r3", "ccccccc333", "2026-11-24T10:00:00Z", "Other CPU", true), history);
        // a resumed run that finishes again replaces its entry
        History.append(run("r1", "aaaaaaa111", "2026-11-22T10:00:00Z", "Test CPU", false), history);

        List<History.Entry> entries = History.entries(history);
        assertThat(entries).hasSize(3);
        List<History.Entry> testCpu = entries.stream().filter(e -> e.cpu().equals("Test CPU")).toList();
        assertThat(testCpu).extracting(History.Entry::shortCommit).containsExactly("aaaaaaa", "bbbbbbb");
        assertThat(testCpu).extracting(History.Entry::run).containsExactly("r1", "r2");
        // the run's own time beside its commit's: two runs of one commit tell apart
        assertThat(testCpu).extracting(History.Entry::runTime).containsExactly(
                "2026-12-01T09:%02d:00Z".formatted(Math.abs("r1".hashCode()) % 60),
                "2026-12-01T09:%02d:00Z".formatted(Math.abs("r2".hashCode()) % 60));
        assertThat(testCpu.get(0).environment()).isEqualTo(testCpu.get(1).environment());
        History.Entry other = entries.stream().filter(e -> e.cpu().equals("Other CPU")).findFirst().orElseThrow();
        assertThat(other.environment()).isNotEqualTo(testCpu.get(0).environment());
        assertThat(other.shortCommit()).isEqualTo("ccccccc+");

        List<Path> written = Trend.write(entries, dir.resolve("trend"));
        String md = Files.readString(dir.resolve("trend/trend.md"));
        // one section per environment, the Test CPU one with a column per commit and the newest/oldest ratio
        assertThat(md).contains("(Test CPU)", "(Other CPU)", "| aaaaaaa | bbbbbbb | newest / oldest |");
        assertThat(md).containsPattern("\\| InferenceBenchmark\\.infer [^|]*\\|[^|]+±[^|]+\\|[^|]+±[^|]+\\| 1\\.000 \\|");
        assertThat(written).anySatisfy(p -> assertThat(p.toString()).endsWith(".svg"))
                .anySatisfy(p -> assertThat(p.toString()).endsWith(".png"));
    }

    @Test
    void aFolderThatIsNotAHistoryIsRefusedInOneLine() {
        assertThatThrownBy(() -> History.entries(dir.resolve("none"))).isInstanceOf(BenchException.class)
                .hasMessageContaining("is not a history folder; expected");
    }

    @Test
    void aRunWithoutResultsIsNotFiled() throws Exception {
        assertThat(History.append(Files.createDirectories(dir.resolve("empty")), dir.resolve("history"))).isNull();
    }

    /** hostA/nightly and hostB/nightly: two entries, not the second replacing the first. */
    @Test
    void runFoldersOfTheSameNameAreTwoEntries() throws Exception {
        Path history = dir.resolve("history");
        Path a = History.append(run("hostA/nightly", "aaaaaaa111", "2026-11-22T10:00:00Z", "Test CPU", false), history);
        Path b = History.append(run("hostB/nightly", "aaaaaaa111", "2026-11-22T10:00:00Z", "Test CPU", false), history);
        assertThat(a).isNotEqualTo(b);
        assertThat(History.entries(history)).hasSize(2);
        // filed again from its own folder (a resume that finishes), hostB's entry is replaced, not added
        History.append(dir.resolve("hostB/nightly"), history);
        assertThat(History.entries(history)).hasSize(2);
    }

    private Path run(String name, String commit, String time, String cpu, boolean dirty) throws Exception {
        Path run = Files.createDirectories(dir.resolve(name));
        Files.copy(RESULT, run.resolve(RunLayout.RESULT), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(run.resolve(RunLayout.ENVIRONMENT), """
                {"cpu": {"model": "%s", "flags": ["avx2"], "cores": 2}, "memory.total.mb": 7936,
                 "os": {"name": "Linux", "kernel": "6.1.%s", "arch": "amd64"}, "jdk": {"version": "17.0.15"},
                 "engines": {"onnxruntime": "1.29.0"},
                 "git": {"commit": "%s", "dirty": "%s", "commit.time": "%s"}, "date": "2026-12-01T09:%02d:00Z"}
                """.formatted(cpu, name, commit, dirty, time, Math.abs(name.hashCode()) % 60));
        return run;
    }
}
