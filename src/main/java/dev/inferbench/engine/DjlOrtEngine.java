package dev.inferbench.engine;

import ai.djl.MalformedModelException;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDList;
import ai.djl.nn.Block;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoopTranslator;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.lang.reflect.Field;
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
    /** Where DJL's {@code OrtSymbolBlock} keeps its {@code OrtSession} (DJL 0.36.0, OrtSymbolBlock.java line 50). */
    static final String SESSION_FIELD = "session";

    private DjlOrtEngine() {
    }

    static InferenceEngine open(Path model, Device device, EngineSettings settings) throws BenchException {
        ModelSignature signature = OnnxFile.read(checked(model), false).signature();
        start();
        ForkOrtProfile fork = ForkOrtProfile.next();
        ZooModel<NDList, NDList> loaded = load(model, device, settings, fork != null ? fork.prefix() : null);
        if (fork == null) {
            return new DjlEngine(ID, model, loaded, loaded::newPredictor, signature, false);
        }
        OrtSession session = sessionOrClose(loaded);
        try {
            fork.opened(session);
        } catch (BenchException e) {
            loaded.close();
            throw e;
        }
        return new DjlEngine(ID, model, loaded, loaded::newPredictor, signature, false, () -> fork.end(session));
    }

    /**
     * The model through DJL with ORT's session profiling on, for an operator pass between forks (never a timed fork):
     * the engine as the cell's forks call it, and the end of the session's profile, which DJL never ends itself.
     */
    static OrtProfiledRun.Profiling openProfiled(Path model, Device device, EngineSettings settings, Path profilePrefix)
            throws BenchException {
        ModelSignature signature = OnnxFile.read(checked(model), false).signature();
        start();
        ZooModel<NDList, NDList> loaded = load(model, device, settings, profilePrefix.toString());
        OrtSession session = sessionOrClose(loaded);
        InferenceEngine engine = new DjlEngine(ID, model, loaded, loaded::newPredictor, signature, false);
        return new OrtProfiledRun.Profiling(engine, () -> {
            try {
                return Path.of(session.endProfiling());
            } catch (OrtException e) {
                throw new BenchException("cannot end ORT's profiling inside DJL: " + OrtEngine.firstLine(e.getMessage()),
                        e);
            }
        });
    }

    private static Path checked(Path model) throws BenchException {
        if (!Files.isRegularFile(model)) {
            throw new BenchException("model file not found: " + model + "; expected an .onnx file");
        }
        if (!model.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".onnx")) {
            throw new BenchException("engine '" + ID + "' cannot read " + model + "; expected an .onnx file");
        }
        return model;
    }

    /**
     * Loads the model on DJL's OnnxRuntime engine (call {@link #start} first).
     *
     * @param profilePrefix where ORT writes the session's profile (DJL's {@code profilerOutput}), or null for none
     */
    private static ZooModel<NDList, NDList> load(Path model, Device device, EngineSettings settings, String profilePrefix)
            throws BenchException {
        Criteria.Builder<NDList, NDList> builder = Criteria.builder()
                .setTypes(NDList.class, NDList.class)
                .optEngine("OnnxRuntime")
                .optModelPath(model.toAbsolutePath())
                .optDevice(DjlRuntime.device(device))
                .optTranslator(new NoopTranslator())
                .optOption("intraOpNumThreads", Integer.toString(settings.resolvedThreads()))
                .optOption("interOpNumThreads", Integer.toString(settings.interOpThreads()))
                .optOption("optLevel", OrtEngine.optLevel(settings.optimization()).name());
        if (profilePrefix != null) {
            // DJL's own option for ORT's session profile (OrtModel.getSessionOptions: enableProfiling(prefix))
            builder.optOption("profilerOutput", profilePrefix);
        }
        try {
            return builder.build().loadModel();
        } catch (ModelNotFoundException | MalformedModelException | IOException | RuntimeException e) {
            String ort = DjlEngine.rootMessage(e);
            // DJL's engine has started, so this is its environment (same name and logging level, so ORT logs no
            // warning); DJL's own getVersion() names the ORT it was built against, not the one the pom pins
            throw new BenchException("cannot load " + model + " with engine '" + ID + "' on " + device + ": " + ort
                    + OrtLoadFailure.expected(model, ort, OrtEnvironment.getEnvironment().getVersion()), e);
        }
    }

    /** The session inside a loaded model ({@link #session}); the model is closed when it cannot be reached. */
    private static OrtSession sessionOrClose(ZooModel<NDList, NDList> loaded) throws BenchException {
        try {
            return session(loaded.getBlock());
        } catch (BenchException e) {
            loaded.close();
            throw e;
        }
    }

    /**
     * The ORT session inside DJL's block, for its profiling start time and file. DJL 0.36.0 keeps it in the private
     * field {@code OrtSymbolBlock.session} and offers no getter (nor the start time, nor the profile's file: DJL never
     * ends profiling, ORT writes the file when the session closes), so it is read by reflection; only in a fork that
     * asked for ORT's profile ({@code --flame-events cpu,ops}) or in an operator pass. A DJL that renames the field
     * fails here in one line.
     */
    static OrtSession session(Block block) throws BenchException {
        try {
            Field f = block.getClass().getDeclaredField(SESSION_FIELD);
            f.setAccessible(true);
            return (OrtSession) f.get(block);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new BenchException("engine '" + ID + "' cannot reach ONNX Runtime's session inside DJL's "
                    + block.getClass().getName() + " (" + DjlEngine.rootMessage(e) + "), whose profile "
                    + "--flame-events ops and the operator passes need; expected DJL's OnnxRuntime engine to keep it in"
                    + " field '" + SESSION_FIELD + "' (DJL 0.36.0)", e);
        }
    }

    /**
     * DJL's OnnxRuntime engine creates ONNX Runtime's process-wide environment itself, with thread options, and
     * cannot start once plain ORT has created it: a benchmark fork runs one engine, but a JVM that opened {@code ort}
     * first (a test, a tool running several engines) must hear why, in one line.
     */
    static void start() throws BenchException {
        DjlRuntime.configure(0);
        try {
            Engine.getEngine("OnnxRuntime");
        } catch (RuntimeException | LinkageError e) {
            throw new BenchException("engine '" + ID + "' cannot start DJL's OnnxRuntime engine: "
                    + DjlEngine.rootMessage(e) + "; expected a JVM where engine 'ort' has not yet created ONNX Runtime's"
                    + " environment (open djl-ort first)", e);
        }
    }
}
