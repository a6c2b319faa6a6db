package dev.inferbench.cell;

import dev.inferbench.Numbers;
import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.config.ModelEntry;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.StateFeed;
import dev.inferbench.input.InputSpec;
import dev.inferbench.input.InputValues;
import dev.inferbench.input.data.NpyFile;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.model.InputShapes;
import dev.inferbench.variant.Precision;

import java.nio.file.Path;
import java.util.Map;

/**
 * One cell of a model benchmark, typed: its JMH parameters parsed once, with the configuration's model registry and
 * seeds. Making one <em>is</em> the check of a cell's values (the matrix check before JMH starts makes one per
 * cell), so that every consumer (the benchmarks' setup, the profilers, the operator profile, the skip rules, the data
 * check) takes values that were parsed and checked in one place. A parameter a benchmark does not declare takes the
 * default below, which is the {@code @Param} default of the benchmark that declares it.
 *
 * @param model         the registry entry (or an .onnx given by path)
 * @param deviceName    the device as the user wrote it ({@code cuda} and {@code cuda:0} are one device, messages
 *                      quote what was given)
 * @param data          {@link DataSource#SYNTHETIC} or the path of real data
 * @param inputSeed     {@code seed.input} of the configuration: every cell's inputs come from it
 * @param callers       concurrent callers (JMH threads), each with its own prepared input
 * @param sharing       whether the callers share one loaded model or each loads its own
 * @param shapes        the cell's own {@code -p shape} (already merged into {@code model}'s inputs), for the check
 *                      that each name is one the model has
 * @param values        the cell's {@code -p values}: what inputs hold instead of synthetic data
 * @param state         the cell's {@code -p state}: outputs fed back as inputs between calls
 */
public record CellSpec(ModelEntry model, EngineKind engine, Device device, String deviceName, int batchSize,
                       int seqLen, EngineSettings settings, Precision precision, String data, long inputSeed,
                       int callers, Sharing sharing, Map<String, long[]> shapes, InputValues values,
                       StateFeed state) {

    /** The parameter names, as the benchmarks declare them. */
    public static final String MODEL = "model";
    public static final String ENGINE = "engine";
    public static final String DEVICE = "device";
    public static final String BATCH_SIZE = "batchSize";
    public static final String SEQ_LEN = "seqLen";
    public static final String THREADS = "threads";
    public static final String INTER_OP_THREADS = "interOpThreads";
    public static final String OPT_LEVEL = "optLevel";
    public static final String PRECISION = "precision";
    public static final String DATA = "data";
    public static final String CALLERS = "callers";
    public static final String SHARING = "sharing";
    public static final String SPIN = "spin";
    public static final String SHAPE = "shape";
    public static final String VALUES = "values";
    public static final String STATE = "state";

    /** Whether a cell's parameters describe a model cell (a benchmark without {@code model} is not one). */
    public static boolean isModelCell(Map<String, String> params) {
        return params.containsKey(MODEL);
    }

    /**
     * The typed cell of JMH parameter values: unknown names and values out of range are {@link BenchException}s that
     * say what was expected.
     */
    public static CellSpec of(Map<String, String> params, BenchConfig config) throws BenchException {
        String modelName = params.get(MODEL);
        if (modelName == null) {
            throw new BenchException("a model benchmark cell needs a '" + MODEL + "' parameter; got " + params);
        }
        EngineKind engine = EngineKind.parse(params.getOrDefault(ENGINE, EngineKind.ORT.id()));
        Precision precision = Precision.parse(params.getOrDefault(PRECISION, Precision.FP32.id()));
        String deviceName = params.getOrDefault(DEVICE, Device.CPU.toString());
        Device device = Device.parse(deviceName);
        int batch = wholeNumber(params, BATCH_SIZE, 1, 1, "e.g. -p batchSize=1,8");
        int seqLen = wholeNumber(params, SEQ_LEN, InputShapes.DEFAULT_SEQ_LEN, 1, "tokens per sample, e.g. -p seqLen=128");
        int threads = wholeNumber(params, THREADS, 0, 0, "0 for all cores, or a thread count");
        int interOp = wholeNumber(params, INTER_OP_THREADS, 0, 0, "0 for the engine's default, or a thread count");
        EngineSettings.GraphOptimization level = EngineSettings.GraphOptimization.parse(
                params.getOrDefault(OPT_LEVEL, EngineSettings.GraphOptimization.ALL.id()));
        int callers = wholeNumber(params, CALLERS, 1, 1, "concurrent callers, e.g. -p callers=1,2,4");
        Sharing sharing = Sharing.parse(params.getOrDefault(SHARING, Sharing.SHARED.id()));
        boolean spinning = onOff(params, SPIN);
        Map<String, long[]> shapes = ShapeParam.parse(params.get(SHAPE));
        InputValues values = InputValues.parse(params.get(VALUES), NpyFile::read);
        StateFeed state = StateFeed.parse(params.get(STATE));
        if (!state.isEmpty() && engine != EngineKind.ORT) {
            throw new BenchException("state " + state.text() + " feeds outputs back as inputs on engine ort only; got"
                    + " engine '" + engine.id() + "'; expected -p engine=ort with -p state");
        }
        if (!state.isEmpty() && callers > 1) {
            throw new BenchException("state " + state.text() + " makes each call continue from the last, which the"
                    + " check of several callers against one caller's outputs cannot follow; got callers=" + callers
                    + "; expected callers=1 with -p state");
        }
        ModelEntry entry = config.model(modelName).withShapes(shapes);
        return new CellSpec(entry, engine, device, deviceName, batch, seqLen,
                new EngineSettings(threads, interOp, level, entry.inputs(), spinning), precision,
                params.getOrDefault(DATA, DataSource.SYNTHETIC), config.seed("input"), callers, sharing, shapes, values,
                state);
    }

    public String modelName() {
        return model.name();
    }

    /** The registered model file, fp32: the source of the cell's precision variant and of the fidelity reference. */
    public Path modelFile() {
        return model.file();
    }

    /** What the cell's input batch is made from. */
    public InputSpec inputs() {
        return new InputSpec(model.name(), model.file(), model.inputs(), batchSize, seqLen, inputSeed, values);
    }

    public boolean syntheticData() {
        return data.equals(DataSource.SYNTHETIC);
    }

    /** The cell whose outputs are the fidelity reference: the model file as is, on ONNX Runtime, on the CPU. */
    public boolean isFidelityReference() {
        return precision == Precision.FP32 && engine == EngineKind.ORT && device.equals(Device.CPU);
    }

    private static boolean onOff(Map<String, String> params, String name) throws BenchException {
        String value = params.getOrDefault(name, "on");
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new BenchException(name + " '" + value + "' is not on or off; expected e.g. -p " + name
                    + "=on,off");
        };
    }

    private static int wholeNumber(Map<String, String> params, String name, int absent, int min, String hint)
            throws BenchException {
        String value = params.get(name);
        if (value == null) {
            return absent;
        }
        return Numbers.wholeAtLeast(value, min, name, hint);
    }
}
