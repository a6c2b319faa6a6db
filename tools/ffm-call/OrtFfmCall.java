import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A measured prototype, not production code (docs/evidence/ffm-call.md): one ONNX Runtime call through its C API with the
 * JDK's foreign-function and memory API (JDK 22+), set against ORT's Java binding in the same JVM on the same model
 * and the same session options (intra-op threads 1, graph optimisation all). Inputs, outputs, the name and
 * {@code OrtValue*} arrays live in native memory made once; a call is one downcall to {@code OrtApi::Run}.
 *
 * <p>The function table is ORT's {@code OrtApi} struct: {@code OrtGetApiBase()->GetApi(version)} returns it, and each
 * member is a function pointer at its index. The indices below are counted from {@code onnxruntime_c_api.h} (the
 * struct is append-only: a member keeps its index in every later version); {@link #verify} checks them against
 * the library before anything is measured: a status round trip (0, 1, 2, 93), the error of a missing model file (7),
 * the CPU memory info's name (69, 71), and the output of a run, which must equal the Java binding's bit for bit (9,
 * 49).
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -cp onnxruntime.jar OrtFfmCall LIBDIR MODEL.onnx
 * ROUNDS SECONDS_PER_LOOP INPUT_SHAPE(e.g. 1x64)}. Prints, per round, bytes allocated by the calling thread per call
 * and ns per call for each loop, then medians and the per-round ratios' medians.
 */
public final class OrtFfmCall {
    /** The API version whose header the indices were counted from (ORT 1.13's; 1.29 serves every version up to 29). */
    static final int API_VERSION = 13;
    static final int CREATE_STATUS = 0, GET_ERROR_CODE = 1, GET_ERROR_MESSAGE = 2, CREATE_ENV = 3, CREATE_SESSION = 7,
            RUN = 9, CREATE_SESSION_OPTIONS = 10, SET_GRAPH_OPTIMIZATION_LEVEL = 23, SET_INTRA_OP_THREADS = 24,
            SET_INTER_OP_THREADS = 25, CREATE_TENSOR_WITH_DATA = 49, CREATE_CPU_MEMORY_INFO = 69,
            MEMORY_INFO_GET_NAME = 71, RELEASE_STATUS = 93, LAST = 101;
    static final int ORT_NO_SUCHFILE = 3, ORT_ENABLE_ALL = 99, FLOAT = 1, ORT_ARENA_ALLOCATOR = 1, ORT_MEM_DEFAULT = 0;

    static final Linker LINKER = Linker.nativeLinker();
    static MemorySegment api;
    static MethodHandle run;
    static MethodHandle runCritical;

    public static void main(String[] args) throws Throwable {
        Path libDir = Path.of(args[0]);
        Path model = Path.of(args[1]);
        int rounds = Integer.parseInt(args[2]);
        double seconds = Double.parseDouble(args[3]);
        long[] inShape = Arrays.stream(args[4].split("x")).mapToLong(Long::parseLong).toArray();

        // The binding first, from the same library file: one libonnxruntime.so in the process, one OrtEnv (ORT's
        // environment is a process-wide singleton; CreateEnv below returns it with its count raised).
        System.setProperty("onnxruntime.native.path", libDir.toString());
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(1);
        options.setInterOpNumThreads(1);
        options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
        OrtSession session = env.createSession(model.toString(), options);
        String inName = session.getInputNames().iterator().next();
        String outName = session.getOutputNames().iterator().next();

        int inCount = Math.toIntExact(Arrays.stream(inShape).reduce(1, (a, b) -> a * b));
        Random random = new Random(42);
        FloatBuffer javaIn = ByteBuffer.allocateDirect(inCount * 4).order(ByteOrder.nativeOrder()).asFloatBuffer();
        Arena arena = Arena.global();
        MemorySegment ffmIn = arena.allocate(JAVA_FLOAT, inCount);
        for (int i = 0; i < inCount; i++) {
            float v = random.nextFloat() * 2 - 1;
            javaIn.put(i, v);
            ffmIn.setAtIndex(JAVA_FLOAT, i, v);
        }
        OnnxTensor input = OnnxTensor.createTensor(env, javaIn, inShape);
        Map<String, OnnxTensor> inputs = new LinkedHashMap<>(Map.of(inName, input)); // as engine 'ort' holds them
        float[] javaOut;
        long[] outShape;
        try (OrtSession.Result r = session.run(inputs)) {
            OnnxTensor t = (OnnxTensor) r.get(0);
            outShape = t.getInfo().getShape();
            javaOut = t.getFloatBuffer().array();
        }
        int outCount = javaOut.length;
        OnnxTensor pinnedOut = OnnxTensor.createTensor(env,
                ByteBuffer.allocateDirect(outCount * 4).order(ByteOrder.nativeOrder()).asFloatBuffer(), outShape);
        Map<String, OnnxTensor> pinned = new LinkedHashMap<>(Map.of(outName, pinnedOut));

        SymbolLookup lib = SymbolLookup.libraryLookup(libDir.resolve("libonnxruntime.so"), arena);
        MemorySegment base = ((MemorySegment) LINKER.downcallHandle(lib.findOrThrow("OrtGetApiBase"),
                FunctionDescriptor.of(ADDRESS)).invokeExact()).reinterpret(16);
        String version = ((MemorySegment) LINKER.downcallHandle(base.get(ADDRESS, 8), FunctionDescriptor.of(ADDRESS))
                .invokeExact()).reinterpret(Long.MAX_VALUE).getString(0);
        api = ((MemorySegment) LINKER.downcallHandle(base.get(ADDRESS, 0), FunctionDescriptor.of(ADDRESS, JAVA_INT))
                .invokeExact(API_VERSION)).reinterpret((LAST + 1) * 8L);
        System.out.println("ONNX Runtime " + version + " (binding " + env.getVersion() + "), OrtApi version "
                + API_VERSION + " at " + api);
        // OrtStatus* returned as a long (the same register on x86-64 and AArch64): an ADDRESS return is a new
        // MemorySegment per call, which only C2 removes, and a ms-scale call is never run often enough for C2
        FunctionDescriptor runType = FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG,
                ADDRESS, JAVA_LONG, ADDRESS);
        run = LINKER.downcallHandle(api.getAtIndex(ADDRESS, RUN), runType);
        // critical: no thread-state transition around the call; allowed because Run (one intra-op thread) never calls
        // back into Java, but it holds off safepoints for the call's duration, so it suits µs calls only
        runCritical = LINKER.downcallHandle(api.getAtIndex(ADDRESS, RUN), runType, Linker.Option.critical(false));

        MemorySegment out = arena.allocate(ADDRESS);
        check(fn(CREATE_ENV, JAVA_INT, ADDRESS, ADDRESS).invoke(2, arena.allocateFrom("ffm"), out));
        MemorySegment ortEnv = out.get(ADDRESS, 0);
        verify(arena, ortEnv);
        check(fn(CREATE_SESSION_OPTIONS, ADDRESS).invoke(out));
        MemorySegment opts = out.get(ADDRESS, 0);
        check(fn(SET_INTRA_OP_THREADS, ADDRESS, JAVA_INT).invoke(opts, 1));
        check(fn(SET_INTER_OP_THREADS, ADDRESS, JAVA_INT).invoke(opts, 1));
        check(fn(SET_GRAPH_OPTIMIZATION_LEVEL, ADDRESS, JAVA_INT).invoke(opts, ORT_ENABLE_ALL));
        check(fn(CREATE_SESSION, ADDRESS, ADDRESS, ADDRESS, ADDRESS).invoke(ortEnv,
                arena.allocateFrom(model.toString()), opts, out));
        MemorySegment ffmSession = out.get(ADDRESS, 0);
        check(fn(CREATE_CPU_MEMORY_INFO, JAVA_INT, JAVA_INT, ADDRESS).invoke(ORT_ARENA_ALLOCATOR, ORT_MEM_DEFAULT,
                out));
        MemorySegment cpu = out.get(ADDRESS, 0);
        MemorySegment ffmOut = arena.allocate(JAVA_FLOAT, outCount);
        MethodHandle tensor = fn(CREATE_TENSOR_WITH_DATA, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT,
                ADDRESS);
        check(tensor.invoke(cpu, ffmIn, ffmIn.byteSize(), arena.allocateFrom(JAVA_LONG, inShape),
                (long) inShape.length, FLOAT, out));
        MemorySegment inValues = arena.allocateFrom(ADDRESS, out.get(ADDRESS, 0));
        check(tensor.invoke(cpu, ffmOut, ffmOut.byteSize(), arena.allocateFrom(JAVA_LONG, outShape),
                (long) outShape.length, FLOAT, out));
        MemorySegment outValues = arena.allocateFrom(ADDRESS, out.get(ADDRESS, 0));
        MemorySegment inNames = arena.allocateFrom(ADDRESS, arena.allocateFrom(inName));
        MemorySegment outNames = arena.allocateFrom(ADDRESS, arena.allocateFrom(outName));
        Ffm ffm = new Ffm(ffmSession, inNames, inValues, outNames, outValues);

        ffm.call(false);
        float[] ffmResult = ffmOut.toArray(JAVA_FLOAT);
        if (!Arrays.equals(ffmResult, javaOut)) {
            throw new IllegalStateException("the C API's output differs from the binding's: Run's index or the tensors"
                    + " are wrong");
        }
        System.out.println("verified: Run through the C API gives the binding's " + outCount + " outputs bit for bit");

        String[] loops = {"binding run(inputs)", "binding run(inputs, pinned)", "C API Run via FFM",
                "C API Run via FFM, critical"};
        int n = loops.length;
        List<double[]> bytes = new ArrayList<>();
        List<double[]> nanos = new ArrayList<>();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int warmupRounds = 2;
        for (int round = 0; round < warmupRounds + rounds; round++) {
            double[] b = new double[n];
            double[] ns = new double[n];
            for (int k = 0; k < n; k++) {
                int loop = (round + k) % n; // each round starts with another loop
                long budget = (long) (seconds * 1e9);
                long a0 = threads.getCurrentThreadAllocatedBytes();
                long t0 = System.nanoTime();
                long calls = switch (loop) {
                    case 0 -> plain(session, inputs, t0, budget);
                    case 1 -> pinned(session, inputs, pinned, t0, budget);
                    case 2 -> ffm.loop(t0, budget, false);
                    default -> ffm.loop(t0, budget, true);
                };
                long t1 = System.nanoTime();
                long a1 = threads.getCurrentThreadAllocatedBytes();
                b[loop] = (double) (a1 - a0) / calls;
                ns[loop] = (double) (t1 - t0) / calls;
            }
            String tag = round < warmupRounds ? "warm-up " : "round ";
            System.out.printf("%s%d: B/call %.1f / %.1f / %.1f / %.1f, ns/call %.0f / %.0f / %.0f / %.0f%n", tag,
                    round < warmupRounds ? round + 1 : round - warmupRounds + 1, b[0], b[1], b[2], b[3], ns[0], ns[1],
                    ns[2], ns[3]);
            if (round >= warmupRounds) {
                bytes.add(b);
                nanos.add(ns);
            }
        }
        System.out.println("medians over " + rounds + " rounds (" + model.getFileName() + ", input "
                + Arrays.toString(inShape) + ", JDK " + Runtime.version() + "):");
        for (int loop = 0; loop < n; loop++) {
            System.out.printf("  %-28s %8.1f B/call %12.0f ns/call%n", loops[loop], median(bytes, loop, -1),
                    median(nanos, loop, -1));
        }
        System.out.printf("  ns ratio (median of rounds), C API / binding run(inputs): %.3f; / binding run(inputs, "
                + "pinned): %.3f; critical / binding run(inputs, pinned): %.3f%n", median(nanos, 2, 0),
                median(nanos, 2, 1), median(nanos, 3, 1));
    }

    /** The function at {@code index} of the OrtApi table, returning an OrtStatus* (null on success). */
    static MethodHandle fn(int index, java.lang.foreign.MemoryLayout... args) {
        return LINKER.downcallHandle(api.getAtIndex(ADDRESS, index), FunctionDescriptor.of(ADDRESS, args));
    }

    static void check(Object status) throws Throwable {
        MemorySegment s = (MemorySegment) status;
        if (s.address() != 0) {
            String message = ((MemorySegment) LINKER.downcallHandle(api.getAtIndex(ADDRESS, GET_ERROR_MESSAGE),
                    FunctionDescriptor.of(ADDRESS, ADDRESS)).invokeExact(s)).reinterpret(Long.MAX_VALUE).getString(0);
            throw new IllegalStateException("ORT C API call failed: " + message);
        }
    }

    /** The indices checked against the library: each call does what that index's function does, or this fails. */
    static void verify(Arena arena, MemorySegment ortEnv) throws Throwable {
        MethodHandle getCode = LINKER.downcallHandle(api.getAtIndex(ADDRESS, GET_ERROR_CODE),
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
        MethodHandle getMessage = LINKER.downcallHandle(api.getAtIndex(ADDRESS, GET_ERROR_MESSAGE),
                FunctionDescriptor.of(ADDRESS, ADDRESS));
        MethodHandle release = LINKER.downcallHandle(api.getAtIndex(ADDRESS, RELEASE_STATUS),
                FunctionDescriptor.ofVoid(ADDRESS));
        MemorySegment status = (MemorySegment) LINKER.downcallHandle(api.getAtIndex(ADDRESS, CREATE_STATUS),
                FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS)).invokeExact(5, arena.allocateFrom("probe"));
        int c = (int) getCode.invokeExact(status);
        String m = ((MemorySegment) getMessage.invokeExact(status)).reinterpret(Long.MAX_VALUE).getString(0);
        release.invokeExact(status);
        MemorySegment out = arena.allocate(ADDRESS);
        MemorySegment missing = (MemorySegment) fn(CREATE_SESSION, ADDRESS, ADDRESS, ADDRESS, ADDRESS).invokeExact(
                ortEnv, arena.allocateFrom("/nonexistent/x.onnx"), MemorySegment.NULL, out);
        int missingCode = (int) getCode.invokeExact(missing);
        String missingMessage = ((MemorySegment) getMessage.invokeExact(missing)).reinterpret(Long.MAX_VALUE)
                .getString(0);
        release.invokeExact(missing);
        check(fn(CREATE_CPU_MEMORY_INFO, JAVA_INT, JAVA_INT, ADDRESS).invoke(ORT_ARENA_ALLOCATOR, ORT_MEM_DEFAULT,
                out));
        MemorySegment info = out.get(ADDRESS, 0);
        check(fn(MEMORY_INFO_GET_NAME, ADDRESS, ADDRESS).invoke(info, out));
        String name = out.get(ADDRESS, 0).reinterpret(Long.MAX_VALUE).getString(0);
        System.out.println("verified: CreateStatus/GetErrorCode/GetErrorMessage round trip (" + c + ", '" + m
                + "'); CreateSession on a missing file: code " + missingCode + " ('" + missingMessage
                + "'); CreateCpuMemoryInfo's name: '" + name + "'");
        if (c != 5 || !m.equals("probe") || missingCode != ORT_NO_SUCHFILE || !name.equals("Cpu")) {
            throw new IllegalStateException("an OrtApi index is wrong for this library");
        }
    }

    static long plain(OrtSession session, Map<String, OnnxTensor> inputs, long t0, long budget) throws Exception {
        long calls = 0;
        do {
            session.run(inputs).close();
            calls++;
        } while (System.nanoTime() - t0 < budget);
        return calls;
    }

    static long pinned(OrtSession session, Map<String, OnnxTensor> inputs, Map<String, OnnxTensor> outputs, long t0,
                       long budget) throws Exception {
        long calls = 0;
        do {
            session.run(inputs, outputs).close();
            calls++;
        } while (System.nanoTime() - t0 < budget);
        return calls;
    }

    /** One prepared call: every argument of Run made once, in native memory. */
    record Ffm(MemorySegment session, MemorySegment inNames, MemorySegment inValues, MemorySegment outNames,
               MemorySegment outValues) {
        void call(boolean critical) throws Throwable {
            long status = critical
                    ? (long) Handles.RUN_CRITICAL.invokeExact(session, MemorySegment.NULL, inNames, inValues, 1L,
                    outNames, 1L, outValues)
                    : (long) Handles.RUN.invokeExact(session, MemorySegment.NULL, inNames, inValues, 1L, outNames, 1L,
                    outValues);
            if (status != 0) {
                check(MemorySegment.ofAddress(status));
            }
        }

        long loop(long t0, long budget, boolean critical) throws Throwable {
            long calls = 0;
            do {
                call(critical);
                calls++;
            } while (System.nanoTime() - t0 < budget);
            return calls;
        }
    }

    /** Run's handles in static final fields, so that the JIT treats it as a constant and inlines the downcall. */
    static final class Handles {
        static final MethodHandle RUN = OrtFfmCall.run;
        static final MethodHandle RUN_CRITICAL = OrtFfmCall.runCritical;
    }

    static double median(List<double[]> rows, int col, int ratioTo) {
        double[] v = rows.stream().mapToDouble(r -> ratioTo < 0 ? r[col] : r[col] / r[ratioTo]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
