package dev.inferbench.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every row of docs/bad-input.md against the built jar and checks the exit code and the message the table
 * promises, so the catalogue and the behaviour cannot drift apart.
 */
class BadInputIT {
    private static final String SHORT = "-f 1 -wi 0 -i 1 -r 100ms";

    @TempDir
    static Path cwd;

    record Row(String number, String what, String args, int exit, String message) {
    }

    @BeforeAll
    static void fixtures() throws Exception {
        Files.writeString(cwd.resolve("text.onnx"), "this is not a model\n");
        Files.createDirectories(cwd.resolve("not-a-run"));
        Files.createDirectories(cwd.resolve("broken-run"));
        Files.writeString(cwd.resolve("broken-run/plan.json"), "{ not json");
        Files.writeString(cwd.resolve("a-file"), "a plain file\n");
        Files.writeString(cwd.resolve("empty.json"), "");
        Files.writeString(cwd.resolve("not-jmh.json"), "{\"a\": 1}\n");
        String jmh = Files.readString(Path.of("src/test/resources/jmh/sample-time.json"));
        Files.writeString(cwd.resolve("truncated.json"), jmh.substring(0, 3000));
        String base = Files.readString(Path.of("benchmarks.properties"));
        Files.writeString(cwd.resolve("benchmarks.properties"), base
                + "\nmodel.text.file=text.onnx\nmodel.truncated.file=truncated.onnx\nmodel.gone.file=gone.onnx\n");
        Files.writeString(cwd.resolve("bad-key.properties"), "run.fork=5\n");
        Files.writeString(cwd.resolve("bad-escape.properties"), "run.forks=\\u12\n");
        Files.writeString(cwd.resolve("bad-int.properties"), "run.forks=many\n");
        Path model = cwd.resolve("models/mlp-tiny.onnx");
        Files.createDirectories(model.getParent());
        try (OutputStream o = Files.newOutputStream(model)) {
            new dev.inferbench.model.OnnxExporter(20261121).write(dev.inferbench.model.Mlp.tiny().build(), o);
        }
        byte[] bytes = Files.readAllBytes(model);
        Files.write(cwd.resolve("truncated.onnx"), Arrays.copyOf(bytes, bytes.length / 2));
    }

    static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("docs/bad-input.md"), StandardCharsets.UTF_8)) {
            String[] cols = line.split("\\s*\\|\\s*");
            if (cols.length == 6 && cols[1].matches("\\d+")) {
                rows.add(new Row(cols[1], cols[2], unquote(cols[3]), Integer.parseInt(cols[4]), unquote(cols[5])));
            }
        }
        return rows;
    }

    private static String unquote(String s) {
        return s.strip().replaceAll("^`|`$", "");
    }

    @Test
    void everyRowOfTheCatalogueBehavesAsDocumented() throws Exception {
        List<Row> rows = rows();
        assertThat(rows).as("rows in docs/bad-input.md").hasSizeGreaterThanOrEqualTo(15);
        List<String> mismatches = new ArrayList<>();
        for (Row row : rows) {
            String problem = check(row);
            if (problem != null) {
                mismatches.add("row " + row.number() + " (" + row.what() + "): " + problem);
            }
        }
        assertThat(mismatches).isEmpty();
    }

    private static String check(Row row) throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of(row.args().replace("SHORT", SHORT).split(" ")));
        while (!args.isEmpty() && args.get(0).startsWith("-D")) {
            jvm.add(args.remove(0));
        }
        Path results = cwd.resolve("results");
        deleteTree(results);
        Path err = cwd.resolve(".err.txt");
        Process p = Jar.command(cwd, jvm, args).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return "did not finish";
        }
        String stderr = Files.readString(err);
        if (p.exitValue() != row.exit()) {
            return "exit " + p.exitValue() + ", documented " + row.exit() + "; stderr: " + stderr;
        }
        Pattern expected = Pattern.compile("inferbench: " + Arrays.stream(row.message().split("…", -1))
                .map(Pattern::quote).reduce((a, b) -> a + ".*" + b).orElse(""));
        if (stderr.lines().noneMatch(l -> expected.matcher(l).matches())) {
            return "message differs; stderr: " + stderr;
        }
        if (row.exit() == 2 && (stderr.lines().count() != 1 || Files.exists(results))) {
            return "bad input must give one line and no run folder; stderr: " + stderr;
        }
        if (row.exit() == 1) {
            try (var dirs = Files.list(results)) {
                Path run = dirs.findFirst().orElseThrow();
                if (!Files.readString(run.resolve("jmh-result.json")).contains("\"batchSize\" : \"1\"")) {
                    return "the cell that could run is not in " + run.resolve("jmh-result.json");
                }
            }
        }
        return null;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var s = Files.walk(dir)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
