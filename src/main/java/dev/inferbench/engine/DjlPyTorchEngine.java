package dev.inferbench.engine;

import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDList;
import ai.djl.nn.LambdaBlock;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ModelNotFoundException;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoopTranslator;
import dev.inferbench.BenchException;
import dev.inferbench.model.Graph;
import dev.inferbench.model.ModelFormat;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.model.Zoo;
import dev.inferbench.tensor.TensorSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Deep Java Library's PyTorch engine (libtorch). A TorchScript file ({@code .pt}, {@code .pth}) is loaded with
 * {@code Criteria}; an inferbench zoo model ({@code .onnx} written by the zoo) is rendered from its {@link Graph} on
 * DJL operators with the weights of that ONNX file, so it is the same network with the same weights as on
 * {@code ort}. Both are called through a {@code Predictor<NDList, NDList>}. libtorch's intra-op pool follows
 * {@code threads}, its inter-op pool {@code interOpThreads} (fixed once per process, before libtorch loads);
 * the ONNX graph optimization level does not apply and is ignored.
 */
final class DjlPyTorchEngine {
    static final String ID = "djl-pytorch";
    static final String ENGINE = "PyTorch";
    private static final String EXPECTED = "a TorchScript file (.pt) or an inferbench zoo model (.onnx)";

    private DjlPyTorchEngine() {
    }

    static InferenceEngine open(Path model, Device device, EngineSettings settings) throws BenchException {
        checkFile(model);
        if (isTorchScript(model)) {
            start(settings);
            return torchScript(model, device, settings);
        }
        return zooModel(model, device, settings, "", (djl, renderer, signature) -> {
            djl.setBlock(new LambdaBlock(renderer::forward, djl.getName()));
            return new DjlEngine(ID, model, djl, () -> djl.newPredictor(new NoopTranslator()), signature,
                    device.kind() == Device.Kind.CUDA);
        });
    }

    /** A zoo model rendered for training steps; a TorchScript file cannot be (its graph is not ours to render). */
    static Trainer trainer(Path model, Device device, EngineSettings settings) throws BenchException {
        checkFile(model);
        if (isTorchScript(model)) {
            throw new BenchException("engine '" + ID + "' cannot train " + model + ": training steps run on zoo models"
                    + " rendered from their graph; expected an inferbench zoo model (.onnx)");
        }
        return zooModel(model, device, settings, " for training", (djl, renderer, signature) ->
                new DjlTrainer(model, djl, renderer, signature));
    }

    static boolean isTorchScript(Path model) {
        return ModelFormat.of(model) == ModelFormat.TORCHSCRIPT;
    }

    /** A TorchScript file, or an ONNX file written by the zoo (it names its architecture in its metadata). */
    static void checkFile(Path model) throws BenchException {
        if (!Files.isRegularFile(model)) {
            throw new BenchException("model file not found: " + model + "; expected " + EXPECTED);
        }
        if (isTorchScript(model)) {
            return;
        }
        if (!model.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".onnx")) {
            throw new BenchException("engine '" + ID + "' cannot read " + model + "; expected " + EXPECTED);
        }
        zooGraph(model, OnnxFile.read(model, false));
    }

    /** True when libtorch can be loaded for CUDA: a CUDA libtorch named by PYTORCH_LIBRARY_PATH (see docs/engines.md). */
    static boolean hasCudaLibrary() {
        String path = System.getenv("PYTORCH_LIBRARY_PATH");
        path = path != null ? path : System.getProperty("PYTORCH_LIBRARY_PATH");
        return path != null && Files.isRegularFile(Path.of(path, "libtorch_cuda.so"));
    }

    private static void start(EngineSettings settings) throws BenchException {
        DjlRuntime.configure(settings.interOpThreads());
        try {
            Engine.getEngine(ENGINE);
            JniUtils.setNumThreads(settings.resolvedThreads());
        } catch (RuntimeException | LinkageError e) {
            throw new BenchException("engine '" + ID + "' cannot start libtorch: " + DjlEngine.rootMessage(e)
                    + "; expected the pytorch-native jar of this build in the classpath", e);
        }
    }

    private static Graph zooGraph(Path model, OnnxFile onnx) throws BenchException {
        String arch = onnx.metadata().get(OnnxExporter.META_ARCHITECTURE);
        if (arch == null) {
            throw new BenchException("engine '" + ID + "' cannot read " + model + ": libtorch has no ONNX importer and "
                    + "the file is not an inferbench zoo model; expected " + EXPECTED);
        }
        return Zoo.parse(arch).architecture().build();
    }

    /** What is made of a zoo model rendered on a fresh DJL model: an inference engine, a trainer. */
    @FunctionalInterface
    private interface ZooUse<T> {
        T make(Model djl, GraphRenderer renderer, ModelSignature signature) throws BenchException;
    }

    /**
     * Reads a zoo file with its weights, starts libtorch and renders the file's Graph on a new DJL model, for
     * {@code use}; the model is closed if that fails.
     *
     * @param purpose said in the message when the model cannot be placed ({@code " for training"}), or empty
     */
    private static <T> T zooModel(Path file, Device device, EngineSettings settings, String purpose, ZooUse<T> use)
            throws BenchException {
        OnnxFile onnx = OnnxFile.read(file, true);
        Graph graph = zooGraph(file, onnx);
        start(settings);
        Model model = Model.newInstance(graph.name(), DjlRuntime.device(device), ENGINE);
        try {
            return use.make(model, GraphRenderer.render(graph, onnx.weights(), model.getNDManager()), onnx.signature());
        } catch (BenchException e) {
            model.close();
            throw e;
        } catch (RuntimeException e) {
            model.close();
            throw new BenchException("engine '" + ID + "' cannot place " + graph.name() + purpose + " on " + device
                    + ": " + DjlEngine.rootMessage(e), e);
        }
    }

    private static InferenceEngine torchScript(Path file, Device device, EngineSettings settings)
            throws BenchException {
        if (settings.declaredInputs().isEmpty()) {
            throw new BenchException("engine '" + ID + "' cannot tell the inputs of " + file + ": TorchScript files "
                    + "do not declare them; expected model.<name>.inputs=name=DxD... in benchmarks.properties");
        }
        Criteria<NDList, NDList> criteria = Criteria.builder()
                .setTypes(NDList.class, NDList.class)
                .optEngine(ENGINE)
                .optModelPath(file.toAbsolutePath())
                .optDevice(DjlRuntime.device(device))
                .optTranslator(new NoopTranslator())
                .build();
        ZooModel<NDList, NDList> loaded;
        try {
            loaded = criteria.loadModel();
        } catch (ModelNotFoundException | MalformedModelException | IOException | RuntimeException e) {
            throw new BenchException("cannot load " + file + " with engine '" + ID + "' on " + device + ": "
                    + DjlEngine.rootMessage(e) + "; expected a TorchScript file (torch.jit.save)", e);
        }
        List<TensorSpec> inputs = new ArrayList<>();
        for (Map.Entry<String, long[]> e : settings.declaredInputs().entrySet()) {
            long[] shape = new long[e.getValue().length + 1];
            shape[0] = -1;
            System.arraycopy(e.getValue(), 0, shape, 1, e.getValue().length);
            inputs.add(new TensorSpec(e.getKey(), TensorSpec.DType.FLOAT32, shape));
        }
        return new DjlEngine(ID, file, loaded, loaded::newPredictor, new ModelSignature(inputs, List.of()),
                device.kind() == Device.Kind.CUDA);
    }
}
