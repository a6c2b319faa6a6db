package dev.inferbench.engine;

import dev.inferbench.tensor.TensorSpec;
import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec.DType;
import dev.inferbench.tensor.HostTensor;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** ONNX Runtime through its Java API: one {@link OrtSession} per loaded model. */
final class OrtEngine implements InferenceEngine {
    /** Makes a prepared input's pinned outputs from its second run's; a test's fails as a short machine would. */
    @FunctionalInterface
    interface Pinning {
        PinnedOutputs like(OrtEnvironment env, OrtSession.Result second) throws OrtException;
    }

    private final OrtEnvironment env;
    private final OrtSession session;
    private final ModelSignature signature;
    /** The model file's name, for messages. */
    private final String name;
    /** The fork's own ORT profile ({@code --flame-events cpu,ops}), ended when the engine closes; else null. */
    private ForkOrtProfile forkProfile;
    private Pinning pinning = PinnedOutputs::like;
    private boolean closed;

    private OrtEngine(OrtEnvironment env, OrtSession session, Path model) throws OrtException {
        this.env = env;
        this.session = session;
        this.name = String.valueOf(model.getFileName());
        this.signature = new ModelSignature(specs(session.getInputInfo()), specs(session.getOutputInfo()));
    }

    static OrtEngine open(Path model, Device device, EngineSettings settings) throws BenchException {
        ForkOrtProfile fork = ForkOrtProfile.next();
        OrtEngine engine = open(model, device, settings, fork == null ? null : Path.of(fork.prefix()));
        if (fork != null) {
            try {
                fork.opened(engine.session);
                engine.forkProfile = fork;
            } catch (BenchException e) {
                engine.close();
                throw e;
            }
        }
        return engine;
    }

    /** @param profilePrefix where ORT writes its per-operator profile (a JSON file named from it), or null for none */
    static OrtEngine open(Path model, Device device, EngineSettings settings, Path profilePrefix) throws BenchException {
        if (!Files.isRegularFile(model)) {
            throw new BenchException("model file not found: " + model + "; expected an .onnx file");
        }
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setOptimizationLevel(optLevel(settings.optimization()));
            options.setIntraOpNumThreads(settings.resolvedThreads());
            if (settings.interOpThreads() > 0) {
                options.setInterOpNumThreads(settings.interOpThreads());
            }
            if (!settings.spinning()) {
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
                options.addConfigEntry("session.inter_op.allow_spinning", "0");
            }
            if (profilePrefix != null) {
                options.enableProfiling(profilePrefix.toString());
            }
            if (device.kind() == Device.Kind.CUDA) {
                addCuda(options, device);
            }
            OrtSession session;
            try {
                session = env.createSession(model.toString(), options);
            } catch (OrtException e) {
                throw new BenchException("cannot load " + model + " with engine 'ort': " + firstLine(e.getMessage())
                        + OrtLoadFailure.expected(model, e.getMessage(), env.getVersion()), e);
            }
            try {
                return new OrtEngine(env, session, model);
            } catch (OrtException | RuntimeException e) {
                try {
                    session.close();
                } catch (OrtException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        } catch (OrtException e) {
            throw new BenchException("engine 'ort' failed on " + model + ": " + firstLine(e.getMessage()), e);
        }
    }

    static OrtSession.SessionOptions.OptLevel optLevel(EngineSettings.GraphOptimization level) {
        return switch (level) {
            case ALL -> OrtSession.SessionOptions.OptLevel.ALL_OPT;
            case EXTENDED -> OrtSession.SessionOptions.OptLevel.EXTENDED_OPT;
            case BASIC -> OrtSession.SessionOptions.OptLevel.BASIC_OPT;
            case NONE -> OrtSession.SessionOptions.OptLevel.NO_OPT;
        };
    }

    /** True when the ORT on the classpath is a GPU build (onnxruntime_gpu, the cuda Maven profile). */
    static boolean hasCudaProvider() {
        ClassLoader cl = OrtEngine.class.getClassLoader();
        return cl.getResource("ai/onnxruntime/native/linux-x64/libonnxruntime_providers_cuda.so") != null
                || cl.getResource("ai/onnxruntime/native/win-x64/onnxruntime_providers_cuda.dll") != null;
    }

    private static void addCuda(OrtSession.SessionOptions options, Device device) throws BenchException {
        try {
            options.addCUDA(device.index());
        } catch (OrtException | UnsatisfiedLinkError e) {
            throw new BenchException("device '" + device + "' is not available to engine 'ort': "
                    + firstLine(e.getMessage()) + "; the bundled ONNX Runtime runs on: cpu", e);
        }
    }

    @Override
    public ModelSignature signature() {
        return signature;
    }

    @Override
    public PreparedInput prepare(List<HostTensor> inputs) throws BenchException {
        return prepare(inputs, StateFeed.OFF);
    }

    @Override
    public PreparedInput prepare(List<HostTensor> inputs, StateFeed state) throws BenchException {
        checkOpen();
        state.check(name, signature.inputs(), signature.outputs());
        Map<String, OnnxTensor> tensors = new LinkedHashMap<>();
        List<StateCopy> copies = new ArrayList<>();
        try {
            for (HostTensor t : inputs) {
                StateFeed.Link link = state.links().stream().filter(l -> l.input().equals(t.name())).findFirst()
                        .orElse(null);
                if (link != null) {
                    // a buffer of its own, written after every run: the caller's host tensor stays as it was
                    ByteBuffer own = t.bytes();
                    tensors.put(t.name(), OnnxTensor.createTensor(env, own, t.shape(), javaType(t)));
                    copies.add(new StateCopy(link, own, t.shape()));
                    continue;
                }
                tensors.put(t.name(), switch (t.type()) {
                    case FLOAT32 -> OnnxTensor.createTensor(env, (FloatBuffer) t.data(), t.shape());
                    case INT64 -> OnnxTensor.createTensor(env, (LongBuffer) t.data(), t.shape());
                    case INT32 -> OnnxTensor.createTensor(env, (IntBuffer) t.data(), t.shape());
                    case FLOAT16 -> OnnxTensor.createTensor(env, (ShortBuffer) t.data(), t.shape(),
                            OnnxJavaType.FLOAT16);
                    case BOOL, UINT8, INT8 -> OnnxTensor.createTensor(env, (ByteBuffer) t.data(), t.shape(),
                            javaType(t));
                    case BFLOAT16, OTHER -> throw unsupported(t);
                });
            }
            for (StateFeed.Link link : state.links()) {
                if (!tensors.containsKey(link.input())) {
                    throw new BenchException("state feeds input '" + link.input() + "', which the prepared inputs do"
                            + " not hold; expected one of " + tensors.keySet());
                }
            }
            return new OrtInput(tensors, copies);
        } catch (OrtException e) {
            tensors.values().forEach(OnnxTensor::close);
            throw new BenchException("cannot create input tensors: " + firstLine(e.getMessage()), e);
        } catch (BenchException | RuntimeException e) {
            tensors.values().forEach(OnnxTensor::close);
            throw e;
        }
    }

    private static OnnxJavaType javaType(HostTensor t) throws BenchException {
        return switch (t.type()) {
            case FLOAT32 -> OnnxJavaType.FLOAT;
            case FLOAT16 -> OnnxJavaType.FLOAT16;
            case INT64 -> OnnxJavaType.INT64;
            case INT32 -> OnnxJavaType.INT32;
            case BOOL -> OnnxJavaType.BOOL;
            case UINT8 -> OnnxJavaType.UINT8;
            case INT8 -> OnnxJavaType.INT8;
            case BFLOAT16, OTHER -> throw unsupported(t);
        };
    }

    private static BenchException unsupported(HostTensor t) {
        return new BenchException("input '" + t.name() + "' has an unsupported type; expected float32, float16, int64,"
                + " int32, bool, uint8 or int8");
    }

    @Override
    public Outputs run(PreparedInput input) throws BenchException {
        checkOpen();
        if (!(input instanceof OrtInput in) || in.closed) {
            throw new BenchException("input prepared by another engine or closed; expected an open one from engine 'ort'");
        }
        try {
            if (in.pinned != null) {
                // The result owns none of the pinned values: closing it frees nothing they hold.
                session.run(in.tensors, in.pinned.byName()).close();
                for (StateCopy copy : in.copies) {
                    copy.from(in.pinned);
                }
                return in.pinned;
            }
            OrtSession.Result result = session.run(in.tensors);
            try {
                for (StateCopy copy : in.copies) {
                    OnnxTensor out = (OnnxTensor) result.get(copy.output()).orElseThrow();
                    copy.from(out.getByteBuffer(), out.getInfo().getShape());
                }
                // Pinned once an input is run a second time: an input run once (a served request) would pay for
                // tensors it never reuses.
                if (++in.unpinnedRuns == 2) {
                    in.pinned = pinning.like(env, result);
                }
            } catch (BenchException | OrtException | RuntimeException | Error e) {
                result.close(); // the caller gets no outputs to close
                throw e;
            }
            return new OrtOutputs(result);
        } catch (OrtException e) {
            throw new BenchException("inference failed in engine 'ort': " + firstLine(e.getMessage()), e);
        }
    }

    /** How the outputs are pinned from now on; a test's pinning fails where a machine short of memory would. */
    void pinWith(Pinning pinning) {
        this.pinning = pinning;
    }

    /** The session and its environment, for {@link OrtDecoder}, which feeds outputs back as inputs. */
    OrtSession session() {
        checkOpen();
        return session;
    }

    OrtEnvironment environment() {
        return env;
    }

    /** Ends ORT's session profiling; the path of the profile JSON it wrote. */
    Path endProfiling() throws BenchException {
        checkOpen();
        try {
            return Path.of(session.endProfiling());
        } catch (OrtException e) {
            throw new BenchException("cannot end ORT's profiling: " + firstLine(e.getMessage()), e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (forkProfile != null) {
            forkProfile.end(session);
        }
        try {
            session.close();
        } catch (OrtException ignored) {
            // closing is best effort: the process ends soon after in a benchmark fork
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("engine 'ort' is closed");
        }
    }

    private static List<TensorSpec> specs(Map<String, NodeInfo> infos) {
        List<TensorSpec> specs = new ArrayList<>();
        for (NodeInfo n : infos.values()) {
            if (n.getInfo() instanceof TensorInfo t) {
                specs.add(new TensorSpec(n.getName(), dtype(t.type), t.getShape(), names(t)));
            } else {
                specs.add(new TensorSpec(n.getName(), DType.OTHER, new long[0]));
            }
        }
        return specs;
    }

    /** ORT gives null for a model without names and null entries for unnamed dimensions. */
    private static String[] names(TensorInfo t) {
        String[] given = t.getDimensionNames();
        String[] out = new String[t.getShape().length];
        for (int i = 0; i < out.length; i++) {
            out[i] = given != null && i < given.length && given[i] != null ? given[i] : "";
        }
        return out;
    }

    private static DType dtype(OnnxJavaType t) {
        return switch (t) {
            case FLOAT -> DType.FLOAT32;
            case INT64 -> DType.INT64;
            case INT32 -> DType.INT32;
            case FLOAT16 -> DType.FLOAT16;
            case BFLOAT16 -> DType.BFLOAT16;
            case BOOL -> DType.BOOL;
            case UINT8 -> DType.UINT8;
            case INT8 -> DType.INT8;
            default -> DType.OTHER;
        };
    }

    static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        String line = message.strip().lines().findFirst().orElse("");
        // ORT's graph errors begin with a long C++ signature and end with the cause: keep both ends
        return line.length() > 600 ? line.substring(0, 200) + " ... " + line.substring(line.length() - 400) : line;
    }

    private static final class OrtInput implements PreparedInput {
        private final Map<String, OnnxTensor> tensors;
        private final StateCopy[] copies;
        /** Output tensors reused by every run after the second; null before or when the outputs cannot be pinned. */
        private PinnedOutputs pinned;
        private int unpinnedRuns;
        private boolean closed;

        OrtInput(Map<String, OnnxTensor> tensors, List<StateCopy> copies) {
            this.tensors = tensors;
            this.copies = copies.toArray(new StateCopy[0]);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                // a loop, not a method reference: this runs in the trial's teardown, inside JMH's last measured
                // iteration, where spinning a lambda class on first use would count kilobytes against the calls
                for (OnnxTensor t : tensors.values()) {
                    t.close();
                }
                if (pinned != null) {
                    pinned.release();
                }
            }
        }
    }
}
