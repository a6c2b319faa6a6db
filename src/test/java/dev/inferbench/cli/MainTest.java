package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import java.util.Arrays;
import java.util.List;
import ai.onnx.proto.OnnxMl;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.model.Mlp;
import dev.inferbench.model.OnnxExporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input is refused before JMH starts: one line on stderr, exit code 2, no run folder. */
class MainTest {
    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private Path results;

    @BeforeEach
    void config() throws IOException {
        Path good = dir.resolve("good.onnx");
        try (OutputStream o = Files.newOutputStream(good)) {
            new OnnxExporter(1).write(Mlp.tiny().build(), o);
        }
        Path corrupt = dir.resolve("corrupt.onnx");
        byte[] bytes = Files.readAllBytes(good);
        Files.write(corrupt, Arrays.copyOf(bytes, bytes.length / 2));
        Files.writeString(dir.resolve("text.onnx"), "this is not a model\n");
        Files.writeString(dir.resolve("their.pt"), "a TorchScript file by its name\n");
        results = dir.resolve("results");
        Path props = dir.resolve("test.properties");
        Files.writeString(props, String.join("\n",
                "run.resultsDir=" + results,
                "param.model=good",
                "param.engine=ort",
                "param.batchSize=1",
                "param.device=cpu",
                "model.good.file=" + good,
                "model.corrupt.file=" + corrupt,
                "model.text.file=" + dir.resolve("text.onnx"),
                "model.gone.file=" + dir.resolve("gone.onnx"),
                "model.their.file=" + dir.resolve("their.pt"),
                ""));
        System.setProperty(BenchConfig.CONFIG_PROPERTY, props.toString());
    }

    @AfterEach
    void clear() {
        System.clearProperty(BenchConfig.CONFIG_PROPERTY);
    }

    private int run(String... args) {
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(args);
    }

    /** Runs a call that must succeed; returns what JMH printed on System.out (its listings and help go there). */
    private String runOk(String... args) {
        PrintStream stdout = System.out;
        ByteArrayOutputStream jmh = new ByteArrayOutputStream();
        System.setOut(new PrintStream(jmh, true, StandardCharsets.UTF_8));
        try {
            assertThat(run(args)).isEqualTo(ExitCode.OK);
        } finally {
            System.setOut(stdout);
        }
        return jmh.toString(StandardCharsets.UTF_8);
    }

    private void assertRefused(String expected, String... args) {
        int code = run(args);
        String e = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(e).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(e.lines()).as("stderr").hasSize(1);
        assertThat(e).startsWith("inferbench: ").contains(expected);
        if (Files.exists(results)) {
            assertThat(results).as("no run folder for a refused run").isEmptyDirectory();
        }
    }

    @Test
    void jmhOptionsThatCouldOnlyFailAtTheEndAreRefusedFirst() {
        assertRefused("Unable to parse benchmark mode: \"foo\"; expected -bm thrpt, avgt, sample, ss or all", "-bm", "foo");
    }

    @Test
    void misspeltParameter() {
        // JMH ignores a -p that no benchmark declares: the run would measure batch 1 and 8 under "batchsize=4"
        assertRefused("unknown parameter 'batchsize' (-p); expected one of: ", "-p", "batchsize=4");
    }

    @Test
    void noForks() {
        assertRefused("0 forks per cell (run.forks or -f) measures nothing; expected 1 or more", "-f", "0");
    }

    @Test
    void resultCopyInAFolderThatDoesNotExist() {
        assertRefused("-rff /nonexistent/r.json cannot be written (no writable folder /nonexistent)", "-rff", "/nonexistent/r.json");
    }

    @Test
    void outputInAFolderThatDoesNotExist() {
        assertRefused("-o /nonexistent/out.txt cannot be written", "-o", "/nonexistent/out.txt");
    }

    @Test
    void resultFormatWithoutAFile() {
        assertRefused("-rf CSV needs -rff FILE", "-rf", "csv");
    }

    @Test
    void unknownModel() {
        assertRefused("unknown model 'resnet51'; expected one of: corrupt, gone, good, text, their", "-p", "model=resnet51");
    }

    @Test
    void unknownEngine() {
        assertRefused("unknown engine 'onnx'; expected one of: ort, djl-ort, djl-pytorch, stub", "-p", "engine=onnx");
    }

    @Test
    void unknownDevice() {
        assertRefused("unknown device 'tpu'; expected one of: cpu, cuda, cuda:N", "-p", "device=cpu,tpu");
    }

    @Test
    void unknownOptLevel() {
        assertRefused("unknown optLevel 'max'; expected one of: all, extended, basic, none", "-p", "optLevel=max");
    }

    @Test
    void negativeInterOpThreads() {
        assertRefused("interOpThreads '-1' is not a whole number >= 0; expected 0 for the engine's default, or a thread"
                + " count", "-p", "interOpThreads=-1");
    }

    @Test
    void batchSizeNotPositive() {
        assertRefused("batchSize '0' is not a whole number >= 1", "-p", "batchSize=1,0");
    }

    @Test
    void batchSizeNotANumber() {
        assertRefused("batchSize 'eight' is not a whole number >= 1", "-p", "batchSize=eight");
    }

    @Test
    void modelFileMissing() {
        assertRefused("model file not found: " + dir.resolve("gone.onnx"), "-p", "model=gone");
    }

    @Test
    void truncatedModel() {
        assertRefused("model 'corrupt' file " + dir.resolve("corrupt.onnx") + " is not a valid ONNX model",
                "-p", "model=good,corrupt");
    }

    @Test
    void torchScriptForAnOnnxEngine() {
        assertRefused("engine 'ort' cannot read " + dir.resolve("their.pt") + ": it is a TorchScript file; expected an"
                + " .onnx file (TorchScript runs on -p engine=djl-pytorch)", "-p", "model=good,their");
    }

    @Test
    void textFileAsModel() {
        assertRefused("is not a valid ONNX model", "-p", "model=text");
    }

    @Test
    void badJmhOption() {
        assertRefused("bad command line", "-f", "many");
    }

    @Test
    void verboseAddsTheStackTrace() {
        int code = run("--verbose", "-p", "engine=onnx");
        assertThat(code).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().count()).isGreaterThan(1);
    }

    @Test
    void noMatchingBenchmarkLeavesNoRunFolder() {
        assertRefused("no benchmark matches [NoSuchBenchmark]", "NoSuchBenchmark");
    }

    @Test
    void zooModelIsGeneratedAndRegeneratedWhenTheSeedChanges() throws Exception {
        Path props = Path.of(System.getProperty(BenchConfig.CONFIG_PROPERTY));
        Path model = dir.resolve("zoo/mlp.onnx");
        String base = Files.readString(props) + "model.mlp.zoo=mlp-tiny\nmodel.mlp.file=" + model + "\n";
        Files.writeString(props, base + "seed.zoo=1\n");
        run("-p", "model=mlp", "--run-dir", dir.toString()); // stops at the non-empty folder, after generation
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("generated mlp-tiny: 2,410 parameters");
        assertThat(OnnxExporter.seedOf(OnnxMl.ModelProto.parseFrom(Files.readAllBytes(model)))).contains(1L);

        Files.writeString(props, base + "seed.zoo=2\n");
        run("-p", "model=mlp", "--run-dir", dir.toString()); // stops at the non-empty folder, after generation
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("was generated with seed 1, seed.zoo is now 2");
        assertThat(OnnxExporter.seedOf(OnnxMl.ModelProto.parseFrom(Files.readAllBytes(model)))).contains(2L);
    }

    @Test
    void listWithParamsShowsTheConfiguredMatrix() {
        assertThat(runOk("-lp", "-p", "device=cuda"))
                .contains("param \"model\" = {good}")
                .contains("param \"device\" = {cuda}")
                .contains("param \"batchSize\" = {1}");
    }

    @Test
    void helpShowsOursFirstThenJmhs() {
        assertThat(runOk("-h")).contains("-rff").contains("-prof"); // JMH's own help, printed after ours
        String help = out.toString(StandardCharsets.UTF_8);
        assertThat(help).contains("inferbench's options: --version");
        assertThat(help).contains("--verbose (JMH's log and stack traces)");
        // a newcomer reads inferbench's own flags and subcommands before JMH's long list, which ours announces last
        assertThat(help.indexOf("--flame")).isLessThan(help.indexOf("JMH's options"));
        assertThat(help.indexOf("calibrate:")).isLessThan(help.indexOf("JMH's options"));
        assertThat(help.strip().lines().reduce((a, b) -> b).orElseThrow()).startsWith("JMH's options");
        assertThat(help.lines().limit(10).anyMatch(l -> l.contains("--resume DIR"))).isTrue();
    }

    @Test
    void longInputListsAreSummarisedInTheModelsTable() {
        List<String> many = new java.util.ArrayList<>(List.of("input_ids:int64[-1, -1]"));
        for (int i = 0; i < 60; i++) {
            many.add("past_key_values." + i + ".key:float32[-1, 4, -1, 16]");
        }
        String cell = ModelsCommand.inputs(many);
        assertThat(cell.length()).isLessThanOrEqualTo(44);
        assertThat(cell).startsWith("input_ids:int64[-1, -1]").endsWith("+60 more (--json)");
        assertThat(ModelsCommand.inputs(List.of("input:float32[-1, 64]"))).isEqualTo("input:float32[-1, 64]");
    }

    @Test
    void modelsCommandPrintsStatisticsOfAFileByPath() {
        assertThat(run("models", dir.resolve("good.onnx").toString())).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("2,410").contains("input:float32[-1, 64]").contains("Gemm 2");
        out.reset();
        assertThat(run("models", "good", "--json")).isEqualTo(ExitCode.OK);
        assertThat(out.toString()).contains("\"params\" : 2410").contains("\"macsPerSample\" : 2368");
    }

    @Test
    void modelsCommandRefusesANonOnnxFile() {
        assertRefused(dir.resolve("text.onnx") + " is not a valid ONNX model", "models", dir.resolve("text.onnx").toString());
    }

    @Test
    void modelByPathThatDoesNotExist() {
        assertRefused("model file not found: /nowhere/my model.onnx", "-p", "model=/nowhere/my model.onnx");
    }

    @Test
    void unresolvableInputDimensionIsRefusedBeforeJmh() throws IOException {
        OnnxMl.ModelProto.Builder m = new OnnxExporter(1).export(Mlp.tiny().build()).toBuilder();
        m.getGraphBuilder().getInputBuilder(0).getTypeBuilder().getTensorTypeBuilder().getShapeBuilder()
                .setDim(1, OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("features"))
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("width"));
        Path file = dir.resolve("dynamic.onnx");
        Files.write(file, m.build().toByteArray());
        assertRefused("input 'input' dimension 1 ('features') of [-1, -1, -1] is dynamic and not a sequence; expected"
                + " its size: -p shape=input:NxN (batch left out) or -p shape=features:N", "-p", "model=" + file);
    }

    @Test
    void shapeAndValuesNamesTheModelLacksAreRefusedBeforeJmh() throws IOException {
        Path file = dev.inferbench.model.DynamicModels.image(dir.resolve("image.onnx"));
        assertRefused("shape names 'heigth', which model '" + file + "' has neither as an input nor as a dimension;"
                + " expected an input of [x] or a dimension of [batch, height, width]", "-p", "model=" + file,
                "-p", "shape=heigth:640;width:640");
        err.reset();
        assertRefused("shape gives dimension 'height' of model '" + file + "' the shape 640x480; expected one size",
                "-p", "model=" + file, "-p", "shape=height:640x480");
        err.reset();
        assertRefused("values names 'sr', which is not an input of model '" + file + "'; expected one of [x]",
                "-p", "model=" + file, "-p", "shape=height:8;width:8", "-p", "values=sr:16000");
        err.reset();
        assertRefused("input 'x' dimension 3 ('width') of [-1, 3, -1, -1] is dynamic and not a sequence; expected"
                + " its size: -p shape=x:3xNxN (batch left out) or -p shape=width:N", "-p", "model=" + file,
                "-p", "batchSize=1", "-p", "shape=height:8,height:8;width:8");
    }

    /**
     * The refusal of a run names -p shape for an open dimension; models and verify load models too and take the
     * same words: the figures that needed the shape (MACs) are read at it, and other parameters are refused.
     */
    @Test
    void modelsAndVerifyTakeTheShapeTheRefusalNames() throws IOException {
        Path file = dev.inferbench.model.DynamicModels.convImage(dir.resolve("conv-image.onnx"));
        assertThat(run("models", file.toString(), "--json")).isEqualTo(ExitCode.OK);
        String open = out.toString(StandardCharsets.UTF_8);
        out.reset();
        assertThat(run("models", file.toString(), "--json", "-p", "shape=x:3x8x8")).isEqualTo(ExitCode.OK);
        String eight = out.toString(StandardCharsets.UTF_8);
        out.reset();
        assertThat(run("models", file.toString(), "--json", "-p", "shape=height:16;width:16")).isEqualTo(ExitCode.OK);
        String sixteen = out.toString(StandardCharsets.UTF_8);
        // 108 multiply-accumulates per output pixel; with the height and width open, none counted (a lower bound)
        assertThat(macs(open)).as(open).isZero();
        assertThat(macs(eight)).as(eight).isEqualTo(108 * 8 * 8);
        assertThat(macs(sixteen)).as(sixteen).isEqualTo(108 * 16 * 16);
        // verify: refused at the open dimension, naming -p shape; run at the shape given (the reference engine's row:
        // in this JVM other tests may have made ORT's environment, which DJL's engine cannot share)
        assertThat(run("verify", file.toString(), "--out", dir.resolve("v1").toString())).isEqualTo(ExitCode.FAILED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("| conv-image.onnx | ort | cpu | failed |")
                .contains("-p shape=x:3xNxN (batch left out)");
        out.reset();
        run("verify", file.toString(), "-p", "shape=x:3x8x8", "--out", dir.resolve("v2").toString());
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("| conv-image.onnx | ort | cpu | agrees |")
                .doesNotContain("is dynamic");
        out.reset();
        err.reset();
        assertRefused("-p model=x: this command takes shape only; expected -p shape=SPEC (the other parameters are a"
                + " run's)", "models", file.toString(), "-p", "model=x");
        err.reset();
        assertRefused("-p batchSize=1: this command takes shape or values only", "verify", file.toString(), "-p",
                "batchSize=1");
    }

    private static double macs(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"macsPerSample\" : ([0-9.eE+-]+)").matcher(json);
        assertThat(m.find()).as(json).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void configFlagNamesTheUsersOwnRegistry() throws IOException {
        Path mine = dir.resolve("elsewhere/mine.properties");
        Files.createDirectories(mine.getParent());
        Files.writeString(mine, "run.resultsDir=" + results + "\nmodel.mine.file=" + dir.resolve("nope.onnx") + "\n");
        assertRefused("model file not found: " + dir.resolve("nope.onnx") + " (model 'mine' in benchmarks.properties)",
                "--config", mine.toString(), "-p", "model=mine");
        assertThat(System.getProperty(BenchConfig.CONFIG_PROPERTY)).isEqualTo(mine.toAbsolutePath().toString());
        err.reset();
        assertRefused("config file not found: " + dir.resolve("gone.properties") + " (from --config); expected a"
                + " properties file", "--config", dir.resolve("gone.properties").toString(), "-p", "model=good");
        err.reset();
        Files.writeString(mine, "run.fork=2\n");
        assertRefused("unknown key 'run.fork' in " + mine, "--config", mine.toString());
    }

    @Test
    void theSubcommandsThatReadTheRegistryTakeConfigToo() throws IOException {
        Path mine = dir.resolve("elsewhere/mine.properties");
        Files.createDirectories(mine.getParent());
        Files.writeString(mine, "run.resultsDir=" + results + "\nmodel.mine.file=" + dir.resolve("good.onnx") + "\n");
        assertThat(run("models", "mine", "--config", mine.toString())).isEqualTo(ExitCode.OK);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("mine");
        assertThat(System.getProperty(BenchConfig.CONFIG_PROPERTY)).as("read, not made the JVM's")
                .isEqualTo(dir.resolve("test.properties").toString());
        out.reset();
        assertRefused("unknown model 'mine'", "models", "mine");
        err.reset();
        assertRefused("config file not found: " + dir.resolve("gone.properties") + " (from --config)", "verify",
                "--config", dir.resolve("gone.properties").toString());
        for (String command : List.of("models", "verify", "history", "merge")) {
            out.reset();
            assertThat(run(command, "--help")).isEqualTo(ExitCode.OK);
            assertThat(out.toString(StandardCharsets.UTF_8)).as(command).contains("--config FILE");
        }
    }
}
