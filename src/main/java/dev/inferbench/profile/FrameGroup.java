package dev.inferbench.profile;

import java.util.List;
import java.util.Locale;

/**
 * Where a cpu sample of an inference call was spent, in groups a JVM team acts on: our harness and engine wrappers,
 * the engine's Java binding and its JNI glue, the engine's native kernels, the JVM's garbage collector and its JIT
 * compiler, and the rest. A sample's group is decided by its thread first (GC and compiler threads run no Java of
 * ours), then by the innermost frame of its stack that belongs to a code group: a sample in {@code memcpy} called by
 * ORT is ORT's, a sample in the JDK's buffer copy called by {@code OnnxTensor.getFloatBuffer} is the binding's, an
 * allocation stub under {@code OrtEngine.run} is inferbench's. What no frame claims is {@link #OTHER}.
 */
public enum FrameGroup {
    INFERBENCH("inferbench"),
    BINDING("binding + JNI"),
    ORT("ORT kernels"),
    GC("GC threads"),
    JIT("JIT compiler"),
    OTHER("other");

    /** ORT's own library; not its JNI binding ({@code libonnxruntime4j_jni.so}), which is {@link #BINDING}. */
    private static final String ORT_LIBRARY = "libonnxruntime.so";
    /** Thread names of HotSpot's collectors (G1, Parallel, ZGC, Shenandoah) as the OS and the recording see them. */
    private static final List<String> GC_THREADS = List.of("gc thread", "g1 ", "gc worker", "conc#", "refine#",
            "zdriver", "zworker", "zdirector", "zstat", "shenandoah", "parallel gc", "gang worker");
    /** Frames only a collection runs: its worker loops, and the VM thread's collection at a safepoint. */
    private static final List<String> GC_FRAMES = List.of("GCTaskThread", "WorkerThread::run", "GangWorker::loop",
            "ConcurrentGCThread::run", "VM_G1CollectForAllocation", "VM_G1CollectFull", "VM_CollectForAllocation",
            "VM_GC_Operation", "VM_ParallelGCFailedAllocation", "VM_GenCollect", "G1ConcurrentRefineThread");
    private static final String COMPILER_THREAD = "compilerthread";
    private static final String COMPILER_FRAME = "CompileBroker::";

    private final String label;

    FrameGroup(String label) {
        this.label = label;
    }

    /** The group's name as the "where" block and its JSON show it. */
    public String label() {
        return label;
    }

    /**
     * @param thread the sample's thread name as recorded, or null when the recording has none
     * @param frames its frames, root first, as the converter names them in collapsed stacks
     */
    public static FrameGroup of(String thread, List<String> frames) {
        String t = thread == null ? "" : thread.toLowerCase(Locale.ROOT);
        if (GC_THREADS.stream().anyMatch(t::contains) || frames.stream().anyMatch(f -> containsAny(f, GC_FRAMES))) {
            return GC;
        }
        if (t.contains(COMPILER_THREAD) || frames.stream().anyMatch(f -> f.contains(COMPILER_FRAME))) {
            return JIT;
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            FrameGroup g = code(frames.get(i));
            if (g != null) {
                return g;
            }
        }
        return OTHER;
    }

    /** The code group one frame belongs to, or null for frames of no group (the JDK, libc, the JVM's runtime). */
    static FrameGroup code(String frame) {
        if (frame.contains(ORT_LIBRARY) || frame.endsWith(KernelName.INSERTED) && frame.startsWith("[")) {
            return ORT;
        }
        String f = frame;
        if (f.startsWith("dev/inferbench/") || f.startsWith("dev.inferbench.")) {
            return INFERBENCH;
        }
        if (f.startsWith("ai/onnxruntime/") || f.startsWith("ai.onnxruntime.") || f.startsWith("ai/djl/")
                || f.startsWith("ai.djl.") || f.startsWith("Java_ai_onnxruntime_") || f.startsWith("Java_ai_djl_")
                || f.contains("libonnxruntime4j_jni") || f.contains("libdjl_")) {
            return BINDING;
        }
        return null;
    }

    private static boolean containsAny(String frame, List<String> parts) {
        for (String p : parts) {
            if (frame.contains(p)) {
                return true;
            }
        }
        return false;
    }
}
