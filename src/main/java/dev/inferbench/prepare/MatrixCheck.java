package dev.inferbench.prepare;

import dev.inferbench.model.OnnxReader;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.generate.CacheBudget;
import dev.inferbench.generate.FitsContext;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.RequestLengths;
import dev.inferbench.generate.Sampling;
import ai.onnx.proto.OnnxMl;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.ZooGenerator;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.model.InputShapes;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.variant.Precision;
import dev.inferbench.variant.Variants;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.cell.ShapeParam;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.Zoo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;

/**
 * Checks every value of the matrix before JMH starts, so that a typo costs one line and no forks, and generates
 * the zoo models the matrix needs. A cell that still fails inside a fork is reported by {@link FailureFilter}.
 */
public final class MatrixCheck {
    private MatrixCheck() {
    }

    /**
     * Lets each engine of the cells start in this JVM before anything here touches ONNX Runtime
     * ({@link EngineKind#startFirst}): a JVM that runs a step of native code for the launcher ({@code cli.PassMain})
     * calls it first. A cell whose parameters do not read is left to that step's own checks.
     */
    public static void startEngines(List<Cell> cells, BenchConfig config) {
        Set<EngineKind> engines = EnumSet.noneOf(EngineKind.class);
        for (Cell c : cells) {
            if (CellSpec.isModelCell(c.params())) {
                try {
                    engines.add(CellSpec.of(c.params(), config).engine());
                } catch (BenchException unreadable) {
                    // said in one line by prepare's own loop
                }
            }
        }
        engines.forEach(EngineKind::startFirst);
    }

    /**
     * Makes the typed cell of every model cell (which checks its values), then, model by model, generates what the
     * zoo needs, reads each file and makes the precision variants the cells use. A benchmark without a {@code model}
     * parameter needs nothing.
     */
    public static void prepare(List<Cell> cells, BenchConfig config, PrintStream progress) throws BenchException {
        Map<String, List<CellSpec>> byModel = new LinkedHashMap<>();
        Map<String, List<Cell>> cellsByModel = new LinkedHashMap<>();
        Map<String, List<FitsContext>> generation = new LinkedHashMap<>();
        Map<String, List<CellSpec>> oneForward = new LinkedHashMap<>(); // the cells that are not generation cells
        for (Cell c : cells) {
            if (CellSpec.isModelCell(c.params())) {
                CellSpec spec = CellSpec.of(c.params(), config);
                boolean generates = GenerationSpec.isGenerationCell(c.params());
                boolean serves = ServingSpec.isServingCell(c.params());
                if (serves) {
                    ServingSpec.of(c.params(), generates); // generation under load: its SLO may bound token times
                }
                if (serves && generates) {
                    Sampling.parse(c.params().getOrDefault(Sampling.PARAM, "greedy"));
                }
                if (generates) {
                    List<FitsContext> checks = generation.computeIfAbsent(spec.modelName(), m -> new ArrayList<>());
                    if (serves) {
                        RequestLengths lengths = RequestLengths.of(c.params());
                        checks.add(lengths);
                        CacheBudget budget = CacheBudget.of(c.params(), lengths);
                        // the file as given: a variant's cache (float16) is its own, checked in the fork that runs it
                        if (budget != null && spec.precision() == Precision.FP32) {
                            checks.add(budget); // after the lengths: a length over the context is named first
                        }
                    } else {
                        checks.add(GenerationSpec.of(c.params()));
                    }
                } else {
                    oneForward.computeIfAbsent(spec.modelName(), m -> new ArrayList<>()).add(spec);
                }
                byModel.computeIfAbsent(spec.modelName(), m -> new ArrayList<>()).add(spec);
                cellsByModel.computeIfAbsent(spec.modelName(), m -> new ArrayList<>()).add(c);
            }
        }
        long zooSeed = config.seed("zoo");
        ZooGenerator generator = new ZooGenerator(zooSeed, progress);
        for (List<CellSpec> specs : byModel.values()) {
            ModelEntry entry = specs.get(0).model();
            if (entry.zoo() == null && Files.isRegularFile(entry.file()) && EngineKind.isTorchScript(entry.file())) {
                checkEngines(specs, entry);
                continue;
            }
            if (entry.zoo() != null && !Files.exists(entry.file())) {
                generator.generate(entry.zoo().architecture(), entry.file());
            }
            // a decoder's inputs (the cache above all) are sized by the generation loop, not by seqLen: only the other
            // cells' seqLen resolves a file's inputs, GenerationCheck checks a decoder's layout instead
            OnnxSummary summary = checkOnnx(entry, oneForward.getOrDefault(entry.name(), List.of()), progress);
            Optional<Long> fileSeed = OnnxExporter.seedOf(summary.metadata());
            String fileArch = summary.metadata().get(OnnxExporter.META_ARCHITECTURE);
            if (entry.zoo() != null && fileSeed.isPresent() && fileSeed.get() != zooSeed) {
                progress.println("[inferbench] " + entry.file() + " was generated with seed " + fileSeed.get()
                        + ", seed.zoo is now " + zooSeed + ": generating it again");
                generator.generate(entry.zoo().architecture(), entry.file());
            } else if (entry.zoo() != null && formatOf(summary) < OnnxExporter.FORMAT) {
                // same network and weights; only what the writer records around them (module-path node names) is new
                progress.println("[inferbench] " + entry.file() + " was written by an older zoo writer (format "
                        + formatOf(summary) + ", now " + OnnxExporter.FORMAT + "): generating it again");
                generator.generate(entry.zoo().architecture(), entry.file());
            } else if (entry.zoo() != null && fileArch != null && !isZoo(fileArch, entry.zoo())) {
                // model.foo.zoo changed from resnet-tiny to mlp-tiny: the old file would be measured under the new name
                progress.println("[inferbench] " + entry.file() + " holds zoo model " + fileArch + ", model."
                        + entry.name() + ".zoo is now " + entry.zoo().architecture().name() + ": generating it again");
                generator.generate(entry.zoo().architecture(), entry.file());
            }
            checkEngines(specs, entry);
            if (generation.containsKey(entry.name()) && !oneForward.containsKey(entry.name())) {
                // the model is asked of generation cells only: one that is no decoder, or a prompt too long, is bad
                // input; a run of every benchmark over a model leaves its generation cells to GenerationSkipRule
                GenerationCheck.asIsLine(GenerationCheck.check(entry, generation.get(entry.name())), entry.file())
                        .ifPresent(progress::println);
            }
            long calibrationSeed = Variants.calibrationSeed(config.seed("input"));
            for (Precision precision : precisions(specs)) {
                if (Variants.calibrates(entry.file(), precision, calibrationSeed)) {
                    List<Cell> modelCells = cellsByModel.get(specs.get(0).modelName());
                    List<Cell> using = new ArrayList<>();
                    for (int i = 0; i < specs.size(); i++) {
                        if (specs.get(i).precision() == precision) {
                            using.add(modelCells.get(i));
                        }
                    }
                    VariantStep.inChild(using.subList(0, 1), entry.name(), config, progress);
                } else {
                    Variants.ensure(entry.name(), entry.file(), precision, entry.inputs(), calibrationSeed, progress);
                }
            }
            DataCheck.inChild(cellsByModel.get(specs.get(0).modelName()), specs, config, progress);
        }
    }

    /** The precisions the model's cells use; a variant only cells that {@link PrecisionSkipRule} skips use is not made. */
    private static Collection<Precision> precisions(List<CellSpec> specs) {
        Set<Precision> out = new LinkedHashSet<>();
        PrecisionSkipRule skip = new PrecisionSkipRule();
        for (CellSpec c : specs) {
            if (skip.skipReason(c).isEmpty()) {
                out.add(c.precision());
            }
        }
        return out;
    }

    /** Each engine the model's cells use can read its file. */
    private static void checkEngines(List<CellSpec> specs, ModelEntry entry) throws BenchException {
        for (EngineKind engine : specs.stream().map(CellSpec::engine).collect(Collectors.toCollection(LinkedHashSet::new))) {
            engine.checkFile(entry.file());
        }
    }

    /** Whether a registered zoo model's file holds another zoo architecture than the registry now names. */
    public static boolean holdsOtherZoo(ModelEntry entry) throws BenchException {
        if (entry.zoo() == null || !Files.isRegularFile(entry.file())) {
            return false;
        }
        String fileArch = OnnxSummary.read(entry.file()).metadata().get(OnnxExporter.META_ARCHITECTURE);
        return fileArch != null && !isZoo(fileArch, entry.zoo());
    }

    private static boolean isZoo(String fileArch, Zoo zoo) {
        try {
            return Zoo.parse(fileArch) == zoo;
        } catch (BenchException e) {
            return false; // a name this build's zoo does not know: not the registered architecture either
        }
    }

    /** The zoo writer's format recorded in the file; 1 for files written before it was recorded. */
    private static int formatOf(OnnxSummary summary) {
        try {
            return Integer.parseInt(summary.metadata().getOrDefault(OnnxExporter.META_FORMAT, "1").trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /**
     * A read of the file without its weights: catches missing, truncated and non-ONNX files, and inputs whose
     * dimensions nothing resolves, without loading an engine.
     */
    private static OnnxSummary checkOnnx(ModelEntry entry, List<CellSpec> specs, PrintStream progress)
            throws BenchException {
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
        List<TensorSpec> inputs = summary.inputs().stream().map(OnnxReader::spec).toList();
        Set<String> seen = new LinkedHashSet<>();
        List<OnnxSummary.FixedBatch> fixed = summary.fixedBatches();
        Set<String> hinted = new LinkedHashSet<>();
        for (CellSpec cell : specs) {
            // a file that fixes its batch runs at that batch only (FixedBatchRule skips the other cells)
            int batch = fixed.isEmpty() ? cell.batchSize() : (int) fixed.get(0).batch();
            if (!seen.add(batch + "|" + cell.seqLen() + "|" + ShapeParam.text(cell.shapes()) + "|"
                    + cell.values().text() + "|" + cell.state().text())) {
                continue;
            }
            List<TensorSpec> outputs = summary.outputs().stream().map(OnnxReader::spec).toList();
            CellInputs.checkNames(entry.name(), inputs, outputs, cell);
            CellInputs.hints(entry.name(), inputs, outputs, cell).stream().filter(hinted::add)
                    .forEach(h -> progress.println("[inferbench] " + h));
            for (TensorSpec spec : inputs) {
                long[] shape = new InputShapes(entry.name(), cell.model().inputs(), batch, cell.seqLen())
                        .resolve(spec, inputs);
                SyntheticInputs.checkValues(entry.name(), spec, shape, cell.values());
            }
        }
        return summary;
    }

    private static String regenerateHint(ModelEntry entry) {
        return entry.zoo() != null ? "; delete it and inferbench generates it again" : "";
    }
}
