package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The engines inferbench can benchmark, by the name used in {@code -p engine=}. */
public enum EngineKind {
    /** ONNX Runtime's Java API, called directly. */
    ORT("ort"),
    /** The same ONNX Runtime behind Deep Java Library's Criteria/Predictor API: what the DJL layer costs. */
    DJL_ORT("djl-ort"),
    /** DJL's PyTorch engine (libtorch): TorchScript files, or zoo models rendered from their Graph. */
    DJL_PYTORCH("djl-pytorch"),
    /**
     * Not an engine: calls of planted cost ({@link dev.inferbench.plant.Plant}, -Dinferbench.stub=...) on the model's signature and ORT's
     * outputs, so that every figure can be read against a known value (docs/calibration.md).
     */
    STUB("stub");

    private final String id;

    EngineKind(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /**
     * Loads {@code model} on {@code device} with default settings but {@code threads}.
     *
     * @param threads intra-op threads; 0 means all available cores
     */
    public InferenceEngine open(Path model, Device device, int threads) throws BenchException {
        return open(model, device, EngineSettings.threads(threads));
    }

    public InferenceEngine open(Path model, Device device, EngineSettings settings) throws BenchException {
        return switch (this) {
            case ORT -> OrtEngine.open(model, device, settings);
            case DJL_ORT -> DjlOrtEngine.open(model, device, settings);
            case DJL_PYTORCH -> DjlPyTorchEngine.open(model, device, settings);
            case STUB -> StubEngine.open(model, device, settings);
        };
    }

    /**
     * In a JVM that runs a native pass over cells of this engine ({@code cli.PassMain}), before anything else in that
     * JVM touches ONNX Runtime: for {@code djl-ort}, starts DJL's OnnxRuntime engine, which makes ONNX Runtime's
     * process-wide environment itself and cannot start once plain ORT has made it. Nothing for the other engines.
     * Best effort: an engine that cannot start here says why in its cells' forks and passes. The launcher starts no
     * engine: native engine code runs in forks and passes only.
     */
    public void startFirst() {
        if (this == DJL_ORT) {
            try {
                DjlOrtEngine.start();
            } catch (BenchException e) {
                // the cell's forks and its operator pass say why, each in its one line
            }
        }
    }

    /**
     * Loads a decoder ({@link DecoderLayout}) for cached generation: ort and djl-ort. djl-pytorch is refused in one
     * line: the zoo's renderer runs a graph as one forward over fixed inputs and does not render the decoder's ops.
     */
    public Decoder openDecoder(Path model, Device device, EngineSettings settings) throws BenchException {
        Optional<String> refusal = generationRefusal();
        if (refusal.isPresent()) {
            throw new BenchException(refusal.get());
        }
        return switch (this) {
            case ORT -> OrtDecoder.open(model, device, settings);
            case STUB -> StubDecoder.open(model);
            default -> DjlDecoder.open(model, device, settings);
        };
    }

    /** Why this engine cannot run cached generation, in one line; empty when it can. */
    public Optional<String> generationRefusal() {
        return this != DJL_PYTORCH ? Optional.empty() : Optional.of("engine '" + id + "' cannot run decoders:"
                + " libtorch runs TorchScript files or zoo graphs rendered as one forward, and the renderer has no"
                + " decoder ops (RMSNorm, rotary, KV-cache concat); expected -p engine=ort or djl-ort for"
                + " GenerationBenchmark");
    }

    /**
     * Loads {@code model} for training steps: djl-pytorch only (DJL's training API on libtorch), and zoo models only.
     */
    public Trainer openTrainer(Path model, Device device, EngineSettings settings) throws BenchException {
        Optional<String> refusal = trainingRefusal();
        if (refusal.isPresent()) {
            throw new BenchException(refusal.get());
        }
        return DjlPyTorchEngine.trainer(model, device, settings);
    }

    /** Why this engine cannot run training steps, in one line; empty when it can. */
    public Optional<String> trainingRefusal() {
        return this == DJL_PYTORCH ? Optional.empty() : Optional.of("engine '" + id + "' cannot run training steps"
                + " (ONNX Runtime's inference sessions compute no gradients); expected -p engine=" + DJL_PYTORCH.id
                + " for TrainingBenchmark");
    }

    /**
     * Refuses, before anything is loaded, a model file this engine cannot read (a TorchScript file for an ONNX
     * engine, a foreign ONNX file for libtorch), with one line naming the engine, the file and what was expected.
     */
    public void checkFile(Path model) throws BenchException {
        switch (this) {
            case ORT, DJL_ORT, STUB -> {
                if (DjlPyTorchEngine.isTorchScript(model)) {
                    throw new BenchException("engine '" + id + "' cannot read " + model + ": it is a TorchScript file;"
                            + " expected an .onnx file (TorchScript runs on -p engine=djl-pytorch)");
                }
            }
            case DJL_PYTORCH -> DjlPyTorchEngine.checkFile(model);
        }
    }

    /** TorchScript by its file name (.pt, .pth, .torchscript): only djl-pytorch reads it. */
    public static boolean isTorchScript(Path model) {
        return DjlPyTorchEngine.isTorchScript(model);
    }

    /**
     * Whether the engine loads an ONNX file as it is, and so any precision variant of it: djl-pytorch renders a zoo
     * model from the fp32 weights instead.
     */
    public boolean readsOnnxAsIs() {
        return this != DJL_PYTORCH;
    }

    /** Whether this engine, as built into this jar, can run on a CUDA GPU at all. */
    public boolean hasCudaBuild() {
        return switch (this) {
            case ORT, DJL_ORT, STUB -> OrtEngine.hasCudaProvider();
            case DJL_PYTORCH -> DjlPyTorchEngine.hasCudaLibrary();
        };
    }

    /** The engines a user compares: every kind but the calibration stub. */
    public static List<EngineKind> measured() {
        return Arrays.stream(values()).filter(e -> e != STUB).toList();
    }

    public static EngineKind parse(String id) throws BenchException {
        return EnumLookup.parse(values(), EngineKind::id, "engine", id);
    }
}
