package dev.inferbench.verify;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.input.data.TestSet;
import dev.inferbench.model.ZooGenerator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One model to verify: a registry name, an .onnx file, or a folder in the ONNX model zoo's layout ({@code model.onnx}
 * beside {@code test_data_set_N/}), or one {@code test_data_set_N} folder (its model is {@code ../model.onnx}).
 * With test sets (an .onnx file's own, beside it), outputs are checked against their expected outputs; without,
 * against the reference engine on synthetic inputs.
 */
public record Target(String name, Path file, Map<String, long[]> perSample, List<Path> testSets) {

    public static Target resolve(String arg, BenchConfig config, PrintStream progress) throws BenchException {
        Path path = Path.of(arg);
        if (Files.isDirectory(path)) {
            if (TestSet.looksLike(path)) {
                Path parent = path.toAbsolutePath().getParent();
                return new Target(parent.getFileName().toString(), onnxIn(parent, arg), Map.of(), List.of(path));
            }
            List<Path> sets = TestSet.setsIn(path);
            if (sets.isEmpty()) {
                throw new BenchException("folder " + arg + " has no test_data_set_N folders; expected a model folder"
                        + " (model.onnx and test_data_set_0/...) or a test_data_set_N folder");
            }
            return new Target(path.toAbsolutePath().normalize().getFileName().toString(), onnxIn(path, arg), Map.of(),
                    sets);
        }
        if (arg.endsWith(".onnx")) {
            if (!Files.isRegularFile(path)) {
                throw new BenchException("model file not found: " + arg + "; expected an .onnx file");
            }
            return new Target(path.getFileName().toString(), path, Map.of(), setsBeside(path, progress));
        }
        ModelEntry entry = config.model(arg);
        if (entry.zoo() != null && !Files.exists(entry.file())) {
            new ZooGenerator(config.seed("zoo"), progress).generate(entry.zoo().architecture(), entry.file());
        }
        return new Target(arg, entry.file(), entry.inputs(), List.of());
    }

    /** This target with {@code shapes} (a run's {@code -p shape}) over its registered ones. */
    public Target withShapes(Map<String, long[]> shapes) {
        if (shapes.isEmpty()) {
            return this;
        }
        Map<String, long[]> merged = new java.util.LinkedHashMap<>(perSample);
        merged.putAll(shapes);
        return new Target(name, file, merged, testSets);
    }

    /** What the outputs are checked on, for people: the test sets by name, or seeded synthetic inputs. */
    public String inputsLabel() {
        if (testSets.isEmpty()) {
            return "seeded synthetic inputs";
        }
        List<String> names = testSets.stream().map(p -> p.toAbsolutePath().normalize().getFileName().toString())
                .toList();
        return names.size() <= 3 ? String.join(", ", names)
                : names.get(0) + " ... " + names.get(names.size() - 1) + " (" + names.size() + " test sets)";
    }

    /**
     * The test sets of an .onnx file in the ONNX model zoo's layout: the {@code test_data_set_N} folders beside it,
     * when it is the model a folder argument would pick (model.onnx, or the folder's only .onnx file). Beside other
     * .onnx files they belong to another model, and the file is checked on synthetic inputs, as the progress says.
     */
    private static List<Path> setsBeside(Path file, PrintStream progress) throws BenchException {
        Path dir = file.toAbsolutePath().getParent();
        List<Path> sets = TestSet.setsIn(dir);
        if (sets.isEmpty()) {
            return sets;
        }
        Path owner;
        try {
            owner = onnxIn(dir, file.toString());
        } catch (BenchException severalOrNone) {
            owner = null;
        }
        if (owner != null && owner.getFileName().equals(file.getFileName())) {
            return sets;
        }
        progress.println("[inferbench] not using the test_data_set_N folders beside " + file + ": they are "
                + (owner != null ? owner.getFileName() + "'s" : "no one model's (" + dir + " holds several .onnx files"
                + " and no model.onnx)") + "; verifying " + file.getFileName() + " on synthetic inputs");
        return List.of();
    }

    private static Path onnxIn(Path dir, String arg) throws BenchException {
        if (Files.isRegularFile(dir.resolve("model.onnx"))) {
            return dir.resolve("model.onnx");
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> onnx = s.filter(p -> p.getFileName().toString().endsWith(".onnx")).sorted().toList();
            if (onnx.size() == 1) {
                return onnx.get(0);
            }
            throw new BenchException("test set " + arg + ": " + dir + " holds " + onnx.size() + " .onnx files;"
                    + " expected exactly one model (model.onnx) beside the test_data_set_N folders");
        } catch (IOException e) {
            throw new BenchException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
