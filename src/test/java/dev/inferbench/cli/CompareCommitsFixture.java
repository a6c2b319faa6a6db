package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.commits.Tools;
import dev.inferbench.commits.Verdicts;
import dev.inferbench.compare.StopAnswer;
import dev.inferbench.flow.CompareFlow;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fake checkout compare-commits' tests run on: stand-ins for java and mvn (src/test/resources/compare-commits), a
 * git repository of two commits with a "built" jar, and a stand-in for compare's two answers (the stop question and
 * the verdict), run in-process through {@link Main} as the jar runs a subcommand.
 */
abstract class CompareCommitsFixture {
    private static final Path FAKES = Path.of("src/test/resources/compare-commits").toAbsolutePath();

    @TempDir
    Path tmp;
    Path repo;
    Path log;
    /** What the fake compare was asked, one line per question: "stop PRECISION PILOT MAXPAIRS" or "compare ...". */
    final List<String> asked = new ArrayList<>();

    /** What a run of the command ended with. */
    record Ended(int code, String out, String err) {
    }

    @BeforeEach
    void aCheckoutWithAJar() throws Exception {
        repo = Files.createDirectories(tmp.resolve("repo"));
        log = tmp.resolve("log");
        Files.writeString(repo.resolve(".gitignore"), "target/\nresults/\n");
        exec(List.of("git", "init", "-q"));
        exec(List.of("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "x", "--allow-empty"));
        exec(List.of("git", "add", "."));
        exec(List.of("git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "ignore"));
        Files.createDirectories(repo.resolve("target"));
        Files.writeString(repo.resolve("target/benchmarks.jar"), "jar");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String fake : List.of("java", "mvn")) {
            Files.copy(FAKES.resolve(fake), bin.resolve(fake));
            assertThat(bin.resolve(fake).toFile().setExecutable(true)).isTrue();
        }
    }

    /**
     * The command run in-process on the fake checkout: {@code env} shapes the fake launchers and builds; the stop
     * question answers {@code stop} (a line as StopAnswer prints it) and the verdict is {@code verdict}.
     */
    Ended run(Map<String, String> env, String stop, int verdict, String... args) throws Exception {
        StringBuilder conf = new StringBuilder("FAKE_LOG=" + log + "\n");
        env.forEach((k, v) -> conf.append(k).append("='").append(v).append("'\n"));
        Files.writeString(tmp.resolve("bin/fake.env"), conf);
        Verdicts fake = new Verdicts() {
            @Override
            public StopAnswer stopAnswer(CompareFlow.Request r, int pilot, int maxPairs) throws BenchException {
                asked.add("stop " + r.precision() + " " + pilot + " " + maxPairs);
                if (stop == null) {
                    throw new BenchException("no jmh-result.json in " + r.runs().get(0));
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("no stop before pair (\\d+)$").matcher(stop);
                return new StopAnswer(stop.startsWith("stop"), 0, m.find() ? Integer.parseInt(m.group(1)) : 0,
                        stop.replaceFirst("^(stop|continue): ", "").replaceFirst("; no stop before pair \\d+$", ""));
            }

            @Override
            public int compare(CompareFlow.Request r, PrintStream o, PrintStream e) {
                if (verdict < 0) {
                    throw new IllegalStateException("compare broke");
                }
                asked.add("compare " + r.precision() + " " + r.failOnRegression() + " " + r.runs());
                o.println("fake compare");
                return verdict;
            }
        };
        Tools tools = new Tools(repo, List.of(tmp.resolve("bin/java").toString()), List.of(),
                tmp.resolve("bin/mvn").toString(), "git");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new Main(o, e).run(List.of(args), new CompareCommitsCommand(tools, fake));
        return new Ended(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Ended run(Map<String, String> env, String... args) throws Exception {
        return run(env, "stop: fake", 0, args);
    }

    private void exec(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("git.out").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ended within a minute").isTrue();
        assertThat(p.exitValue()).as(String.join(" ", cmd)).isZero();
    }

    String out() {
        return repo.resolve("results/ab").toString();
    }

    String read(String file) throws IOException {
        Path p = Path.of(file);
        return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    }
}
