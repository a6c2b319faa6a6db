package dev.inferbench.it;

import java.util.Comparator;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.Llama;
import dev.inferbench.model.Mlp;
import ai.onnx.proto.OnnxMl;
import dev.inferbench.engine.GpuProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every row of docs/bad-input.md against the built jar and checks the exit code and the message the table
 * promises, so the catalogue and the behaviour cannot drift apart. Each row is a test of its own, so that a row
 * this machine cannot stage (an unwritable folder when even root's {@code chattr +i} fails, a missing GPU) is
 * reported as skipped rather than passed. Rows run side by side with each other and the other end-to-end tests, each
 * in a copy of the fixtures of its own: most are a JVM that refuses its input within a second.
 */
class BadInputIT {
    private static final String SHORT = "-f 1 -wi 0 -i 1 -r 100ms" + Jar.NO_SPARES;

    @TempDir
    static Path work;
    /** The fixtures every row's folder is a copy of. */
    private static Path cwd;

    /** Whether {@code read-only/} really refuses writes here (as root, mode 555 alone does not). */
    private static boolean readOnlyHolds;
    private static boolean immutable;

    record Row(String number, String what, String args, int exit, String message) {
        @Override
        public String toString() {
            return "row " + number + " (" + what + ")";
        }
    }

    @BeforeAll
    static void fixtures() throws Exception {
        cwd = Files.createDirectory(work.resolve("fixtures"));
        Files.writeString(cwd.resolve("text.onnx"), "this is not a model\n");
        Files.createDirectories(cwd.resolve("not-a-run"));
        Files.createDirectories(cwd.resolve("broken-run"));
        Files.writeString(cwd.resolve("broken-run/plan.json"), "{ not json");
        Files.createDirectories(cwd.resolve("a-run"));
        Files.writeString(cwd.resolve("a-run/plan.json"), dev.inferbench.run.Plan.of(java.util.List.of("-f", "1"), null,
                1, new dev.inferbench.run.Plan.Settings(0, null, 1, null), dev.inferbench.run.Shard.WHOLE,
                java.util.List.of(), java.util.List.of()).toJson());
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
            new OnnxExporter(20261121).write(Mlp.tiny().build(), o);
        }
        byte[] bytes = Files.readAllBytes(model);
        Files.write(cwd.resolve("truncated.onnx"), Arrays.copyOf(bytes, bytes.length / 2));
        OnnxMl.ModelProto.Builder dynamic = OnnxMl.ModelProto.parseFrom(bytes).toBuilder();
        dynamic.getGraphBuilder().getInputBuilder(0).getTypeBuilder().getTensorTypeBuilder().getShapeBuilder()
                .setDim(1, OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("features"))
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("width"));
        Files.write(cwd.resolve("dynamic.onnx"), dynamic.build().toByteArray());
        Files.writeString(cwd.resolve("their.pt"), "named as TorchScript\n");
        decoders();
        Files.writeString(cwd.resolve("typo-cells.txt"), "batchSize=1 precison=fp32\n");
        Files.writeString(cwd.resolve("no-cells.txt"), "# nothing but a comment\n");
        Files.writeString(cwd.resolve("broken-cells.txt"), "batchSize=1\nbatchSize=8 fp16\n");
        Files.writeString(cwd.resolve("bad-lengths.csv"), "128,64\n32;16\n");
        prompts();
        readOnlyFolder(cwd.resolve("read-only"));
    }

    /**
     * llama-tiny as the zoo makes it, and two decoders that do not fit: {@code vocab.onnx} (metadata naming another
     * vocabulary than its logits have), {@code merged.onnx} (a use_cache_branch input of type float, where a merged
     * decoder's is a bool) and {@code bf16.onnx} (its caches and logits declared bfloat16).
     */
    private static void decoders() throws IOException {
        OnnxMl.ModelProto llama = new OnnxExporter(20261121).export(Llama.tiny().build());
        Files.write(cwd.resolve("models/llama-tiny.onnx"), llama.toByteArray());
        OnnxMl.ModelProto.Builder vocab = llama.toBuilder();
        for (int i = 0; i < vocab.getMetadataPropsCount(); i++) {
            if (vocab.getMetadataProps(i).getKey().equals(OnnxExporter.META_VOCAB)) {
                vocab.setMetadataProps(i, vocab.getMetadataProps(i).toBuilder().setValue("32000"));
            }
        }
        Files.write(cwd.resolve("vocab.onnx"), vocab.build().toByteArray());
        OnnxMl.ModelProto.Builder merged = llama.toBuilder();
        merged.getGraphBuilder().addInput(OnnxMl.ValueInfoProto.newBuilder().setName("use_cache_branch")
                .setType(OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                        .setElemType(OnnxMl.TensorProto.DataType.FLOAT.getNumber()).setShape(
                                OnnxMl.TensorShapeProto.newBuilder().addDim(
                                        OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(1))))));
        Files.write(cwd.resolve("merged.onnx"), merged.build().toByteArray());
        OnnxMl.ModelProto.Builder bf16 = llama.toBuilder();
        OnnxMl.GraphProto.Builder g = bf16.getGraphBuilder();
        for (int i = 0; i < g.getInputCount(); i++) {
            if (g.getInput(i).getName().startsWith("past_key_values.")) {
                g.getInputBuilder(i).getTypeBuilder().getTensorTypeBuilder()
                        .setElemType(OnnxMl.TensorProto.DataType.BFLOAT16.getNumber());
            }
        }
        for (int i = 0; i < g.getOutputCount(); i++) {
            g.getOutputBuilder(i).getTypeBuilder().getTensorTypeBuilder()
                    .setElemType(OnnxMl.TensorProto.DataType.BFLOAT16.getNumber());
        }
        Files.write(cwd.resolve("bf16.onnx"), bf16.build().toByteArray());
    }

    /**
     * Prompt files: {@code prompts.txt} (one short prompt), {@code empty-prompts.txt} (a blank line),
     * {@code no-field.jsonl} (a line without a prompt or text field), {@code long.txt} (a prompt of 200 tokens), and
     * {@code tok/} holding llama-tiny with a tokenizer.json beside it (models/ has none).
     */
    private static void prompts() throws IOException {
        Files.writeString(cwd.resolve("prompts.txt"), "t1 t2 t3\n");
        Files.writeString(cwd.resolve("empty-prompts.txt"), "\n");
        Files.writeString(cwd.resolve("no-field.jsonl"), "{\"question\": \"t1 t2\"}\n");
        Files.writeString(cwd.resolve("long.txt"), String.join(" ", java.util.Collections.nCopies(200, "t7")) + "\n");
        Path tok = Files.createDirectories(cwd.resolve("tok"));
        Files.copy(cwd.resolve("models/llama-tiny.onnx"), tok.resolve("llama-tiny.onnx"));
        dev.inferbench.generate.TestTokenizer.write(tok, 512);
    }

    /** Mode 555; where that does not stop writes (root), also the immutable attribute, which binds root too. */
    private static void readOnlyFolder(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        if (writable(dir)) {
            Process chattr = new ProcessBuilder("chattr", "+i", dir.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            immutable = chattr.waitFor(1, TimeUnit.MINUTES) && chattr.exitValue() == 0;
        }
        readOnlyHolds = !writable(dir);
    }

    private static boolean writable(Path dir) {
        try {
            Files.delete(Files.createDirectory(dir.resolve("probe")));
            return true;
        } catch (IOException refused) {
            return false;
        }
    }

    @AfterAll
    static void writableAgain() throws IOException, InterruptedException {
        Path dir = cwd.resolve("read-only");
        if (immutable) {
            new ProcessBuilder("chattr", "-i", dir.toString()).start().waitFor(1, TimeUnit.MINUTES);
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x")); // so @TempDir can delete it
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
    void theCatalogueHasItsRows() throws IOException {
        assertThat(rows()).as("rows in docs/bad-input.md").hasSizeGreaterThanOrEqualTo(15)
                .extracting(Row::number).doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    @Execution(ExecutionMode.CONCURRENT)
    void rowBehavesAsDocumented(Row row) throws Exception {
        if (row.args().contains("read-only/")) {
            Assumptions.assumeTrue(readOnlyHolds, "no way to make a folder unwritable here (root without chattr)");
        }
        if (row.args().contains("cuda:")) {
            Assumptions.assumeTrue(GpuProbe.system().cudaDevices() == 0, "documented for a machine without a GPU");
        }
        assertThat(check(row)).as(row.toString()).isNull();
    }

    private static String check(Row row) throws IOException, InterruptedException {
        List<String> jvm = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of(row.args().replace("SHORT", SHORT).split(" ")));
        while (!args.isEmpty() && args.get(0).startsWith("-D")) {
            jvm.add(args.remove(0));
        }
        // the read-only folder's row runs in the fixtures themselves, which no other row writes into
        Path dir = row.args().contains("read-only/") ? cwd : copyOfFixtures(work.resolve("row-" + row.number()));
        Path results = dir.resolve("results");
        deleteTree(results);
        Path err = dir.resolve(".err.txt");
        Path out = dir.resolve(".out.txt");
        // a row of one of the checkout's scripts runs that script in the fixtures' folder; it prefixes its own name
        boolean script = args.get(0).startsWith("tools/");
        String prefix = script ? Path.of(args.get(0)).getFileName().toString().replaceAll("\\.sh$", "") + ": "
                : row.exit() == 0 ? "[inferbench] " : "inferbench: ";
        ProcessBuilder command = script
                ? new ProcessBuilder(concat(List.of("bash", Path.of(args.get(0)).toAbsolutePath().toString()),
                        args.subList(1, args.size()))).directory(dir.toFile())
                : Jar.command(dir, jvm, args);
        Process p = command.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return "did not finish";
        }
        String stderr = Files.readString(err);
        if (p.exitValue() != row.exit()) {
            return "exit " + p.exitValue() + ", documented " + row.exit() + "; stderr: " + stderr;
        }
        // a skip (exit 0) is reported with the plan on stdout; everything else is one line on stderr
        String said = row.exit() == 0 ? Files.readString(out) : stderr;
        Pattern expected = Pattern.compile(Pattern.quote(prefix)
                + Arrays.stream(row.message().split("…", -1)).map(Pattern::quote).reduce((a, b) -> a + ".*" + b)
                .orElse(""));
        if (said.lines().noneMatch(l -> expected.matcher(l).matches())) {
            return "message differs; " + (row.exit() == 0 ? "stdout: " : "stderr: ") + said;
        }
        // bad input (2) and a folder that cannot be written (5) are both refused before anything runs
        boolean refused = row.exit() == 2 || row.exit() == 5;
        if (refused && (stderr.lines().count() != 1 || Files.exists(results))) {
            return "a refusal must give one line and no run folder; stderr: " + stderr;
        }
        if (!refused) {
            try (var dirs = Files.list(results)) {
                // the run folder, not the history the finished run was also filed in
                Path run = dirs.filter(d -> !d.getFileName().toString().equals("history")).findFirst().orElseThrow();
                if (!Files.readString(run.resolve("jmh-result.json")).contains("\"batchSize\" : \"1\"")) {
                    return "the cell that could run is not in " + run.resolve("jmh-result.json");
                }
            }
        }
        return null;
    }

    /**
     * The fixtures copied to {@code to}, each file with its times; not the read-only folder, nor what its row writes
     * in the fixtures' folder.
     */
    private static Path copyOfFixtures(Path to) throws IOException {
        List<Path> not = List.of(cwd.resolve("read-only"), cwd.resolve("results"), cwd.resolve(".err.txt"),
                cwd.resolve(".out.txt"));
        try (var s = Files.walk(cwd)) {
            for (Path from : s.filter(p -> not.stream().noneMatch(p::startsWith)).toList()) {
                Path copy = to.resolve(cwd.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(from, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
