package dev.inferbench.cli;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.model.stats.ModelStats;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.input.InputShapes;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.model.variant.Precision;
import dev.inferbench.model.variant.PrecisionSkipRule;
import dev.inferbench.model.variant.Variants;
import dev.inferbench.run.Cell;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;

/**
 * Checks every value of the matrix before JMH starts, so that a typo costs one line and no forks, and generates
 * the zoo models the matrix needs. A cell that still fails inside a fork is reported by {@link FailureFilter}.
 */
final class MatrixCheck {
    private MatrixCheck() {
    }

    /** Checks the values the cells use (a benchmark without a {@code model} parameter needs no model). */
    static void prepare(List<Cell> cells, BenchConfig config, PrintStream progress) throws BenchException {
        for (String engine : values(cells, "engine")) {
            EngineKind.parse(engine);
        }
        for (String precision : values(cells, "precision")) {
            Precision.parse(precision);
        }
        for (String device : values(cells, "device")) {
            Device.parse(device);
        }
        for (String batch : values(cells, "batchSize")) {
            wholeNumber("batchSize", batch, 1, "e.g. -p batchSize=1,8");
        }
        for (String seqLen : values(cells, "seqLen")) {
            wholeNumber("seqLen", seqLen, 1, "tokens per sample, e.g. -p seqLen=128");
        }
        for (String threads : values(cells, "threads")) {
            wholeNumber("threads", threads, 0, "0 for all cores, or a thread count");
        }
        for (String threads : values(cells, "interOpThreads")) {
            wholeNumber("interOpThreads", threads, 0, "0 for the engine's default, or a thread count");
        }
        for (String level : values(cells, "optLevel")) {
            EngineSettings.GraphOptimization.parse(level);
        }
        long zooSeed = config.seed("zoo");
        ZooGenerator generator = new ZooGenerator(zooSeed, progress);
        for (String model : values(cells, "model")) {
            ModelEntry entry = config.model(model);
            if (entry.zoo() == null && Files.isRegularFile(entry.file()) && EngineKind.isTorchScript(entry.file())) {
                checkEngines(cells, model, entry);
                continue;
            }
            if (entry.zoo() != null && !Files.exists(entry.file())) {
                generator.generate(entry.zoo().architecture(), entry.file());
            }
            OnnxSummary summary = checkOnnx(entry, values(cells, "seqLen"));
            Optional<Long> fileSeed = seedOf(summary);
            String fileArch = summary.metadata().get(OnnxExporter.META_ARCHITECTURE);
            if (entry.zoo() != null && fileSeed.isPresent() && fileSeed.get() != zooSeed) {
                progress.println("[inferbench] " + entry.file() + " was generated with seed " + fileSeed.get()
                        + ", seed.zoo is now " + zooSeed + ": generating it again");
                generator.generate(entry.zoo().architecture(), entry.file());
            } else if (entry.zoo() != null && fileArch != null && !isZoo(fileArch, entry.zoo())) {
                // model.foo.zoo changed from resnet-tiny to mlp-tiny: the old file would be measured under the new name
                progress.println("[inferbench] " + entry.file() + " holds zoo model " + fileArch + ", model." + model
                        + ".zoo is now " + entry.zoo().architecture().name() + ": generating it again");
                generator.generate(entry.zoo().architecture(), entry.file());
            }
            checkEngines(cells, model, entry);
            for (Precision precision : precisions(cells, model, config)) {
                Variants.ensure(model, entry.file(), precision, entry.inputs(),
                        Variants.calibrationSeed(config.seed("input")), progress);
            }
            DataCheck.check(cells, model, entry, config.seed("input"));
        }
    }

    /**
     * The precisions the model's cells use, each checked (an unknown one stops the run before any fork); a variant
     * only cells that {@link PrecisionSkipRule} skips would use is not made.
     */
    private static Collection<Precision> precisions(List<Cell> cells, String model, BenchConfig config)
            throws BenchException {
        Set<Precision> out = new LinkedHashSet<>();
        PrecisionSkipRule skip = new PrecisionSkipRule();
        for (Cell c : cells) {
            String p = c.params().get("precision");
            if (p != null && model.equals(c.params().get("model"))) {
                Precision precision = Precision.parse(p);
                if (skip.skipReason(c.params(), config).isEmpty()) {
                    out.add(precision);
                }
            }
        }
        return out;
    }

    /** Each engine the model's cells use can read its file. */
    private static void checkEngines(List<Cell> cells, String model, ModelEntry entry) throws BenchException {
        Set<String> engines = new LinkedHashSet<>();
        cells.stream().filter(c -> model.equals(c.params().get("model")) && c.params().containsKey("engine"))
                .forEach(c -> engines.add(c.params().get("engine")));
        for (String engine : engines) {
            EngineKind.parse(engine).checkFile(entry.file());
        }
    }

    /** Whether a registered zoo model's file holds another zoo architecture than the registry now names. */
    static boolean holdsOtherZoo(ModelEntry entry) throws BenchException {
        if (entry.zoo() == null || !Files.isRegularFile(entry.file())) {
            return false;
        }
        String fileArch = OnnxSummary.read(entry.file()).metadata().get(OnnxExporter.META_ARCHITECTURE);
        return fileArch != null && !isZoo(fileArch, entry.zoo());
    }

    private static boolean isZoo(String fileArch, dev.inferbench.model.Zoo zoo) {
        try {
            return dev.inferbench.model.Zoo.parse(fileArch) == zoo;
        } catch (BenchException e) {
            return false; // a name this build's zoo does not know: not the registered architecture either
        }
    }

    private static Optional<Long> seedOf(OnnxSummary summary) {
        try {
            return Optional.ofNullable(summary.metadata().get(OnnxExporter.META_SEED)).map(Long::parseLong);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Collection<String> values(List<Cell> cells, String param) {
        Set<String> values = new LinkedHashSet<>();
        cells.forEach(c -> {
            if (c.params().containsKey(param)) {
                values.add(c.params().get(param));
            }
        });
        return values;
    }

    private static void wholeNumber(String param, String value, int min, String hint) throws BenchException {
        try {
            if (Integer.parseInt(value.trim()) >= min) {
                return;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new BenchException(param + " '" + value + "' is not a whole number >= " + min + "; expected " + hint);
    }

    /**
     * A read of the file without its weights: catches missing, truncated and non-ONNX files, and inputs whose
     * dimensions nothing resolves, without loading an engine.
     */
    private static OnnxSummary checkOnnx(ModelEntry entry, Collection<String> seqLens) throws BenchException {
        Path file = entry.file();
        if (!Files.isRegularFile(file)) {
            throw new BenchException("model file not found: " + file + " (model '" + entry.name()
                    + "' in " + BenchConfig.FILE_NAME + "); expected an .onnx file");
        }
        OnnxSummary summary;
        try {
            summary = OnnxSummary.read(file);
        } catch (BenchException e) {
            throw new BenchException("model '" + entry.name() + "' file " + e.getMessage() + regenerateHint(entry), e);
        }
        for (OnnxMl.ValueInfoProto input : summary.inputs()) {
            TensorSpec spec = ModelStats.spec(input);
            int batch = spec.shape().length > 0 && spec.shape()[0] > 0 ? (int) spec.shape()[0] : 1;
            for (String seqLen : seqLens.isEmpty() ? List.of("128") : seqLens) {
                new InputShapes(entry.name(), entry.inputs(), batch, Integer.parseInt(seqLen.trim())).resolve(spec);
            }
        }
        return summary;
    }

    private static String regenerateHint(ModelEntry entry) {
        return entry.zoo() != null ? "; delete it and inferbench generates it again" : "";
    }
}
