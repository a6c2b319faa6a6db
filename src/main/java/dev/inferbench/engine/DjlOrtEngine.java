package dev.inferbench.engine;

import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDList;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoopTranslator;
import ai.onnxruntime.OrtEnvironment;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * ONNX Runtime behind Deep Java Library: the ONNX file loaded with {@code Criteria} on DJL's OnnxRuntime engine and
 * called through a {@code Predictor<NDList, NDList>}, as DJL's documentation writes it. It runs the same ORT native
 * library as {@code ort} (the pom pins it), so the difference between the two is the DJL layer.
 */
final class DjlOrtEngine {
    static final String ID = "djl-ort";

    private DjlOrtEngine() {
    }

    static InferenceEngine open(Path model, Device device, EngineSettings settings) throws BenchException {
        if (!Files.isRegularFile(model)) {
            throw new BenchException("model file not found: " + model + "; expected an .onnx file");
        }
        if (!model.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".onnx")) {
            throw new BenchException("engine '" + ID + "' cannot read " + model + "; expected an .onnx file");
        }
        ModelSignature signature = OnnxFile.read(model, false).signature();
        DjlRuntime.configure(0);
        start();
        Criteria<NDList, NDList> criteria = Criteria.builder()
                .setTypes(NDList.class, NDList.class)
                .optEngine("OnnxRuntime")
                .optModelPath(model.toAbsolutePath())
                .optDevice(DjlRuntime.device(device))
                .optTranslator(new NoopTranslator())
                .optOption("intraOpNumThreads", Integer.toString(settings.resolvedThreads()))
                .optOption("interOpNumThreads", Integer.toString(settings.interOpThreads()))
                .optOption("optLevel", OrtEngine.optLevel(settings.optimization()).name())
                .build();
        ZooModel<NDList, NDList> loaded;
        try {
            loaded = criteria.loadModel();
        } catch (ModelNotFoundException | MalformedModelException | IOException | RuntimeException e) {
            String ort = DjlEngine.rootMessage(e);
            // DJL's engine has started, so this is its environment (same name and logging level, so ORT logs no
            // warning); DJL's own getVersion() names the ORT it was built against, not the one the pom pins
            throw new BenchException("cannot load " + model + " with engine '" + ID + "' on " + device + ": " + ort
                    + OrtLoadFailure.expected(model, ort, OrtEnvironment.getEnvironment().getVersion()), e);
        }
        return new DjlEngine(ID, model, loaded, loaded::newPredictor, signature, false);
    }

    /**
     * DJL's OnnxRuntime engine creates ONNX Runtime's process-wide environment itself, with thread options, and
     * cannot start once plain ORT has created it: a benchmark fork runs one engine, but a JVM that opened {@code ort}
     * first (a test, a tool running several engines) must hear why, in one line.
     */
    private static void start() throws BenchException {
        try {
            Engine.getEngine("OnnxRuntime");
        } catch (RuntimeException | LinkageError e) {
            throw new BenchException("engine '" + ID + "' cannot start DJL's OnnxRuntime engine: "
                    + DjlEngine.rootMessage(e) + "; expected a JVM where engine 'ort' has not yet created ONNX Runtime's"
                    + " environment (open djl-ort first)", e);
        }
    }
}
