package dev.inferbench.profile;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stacks as the converter writes them (root first, type suffixes as in collapsed output), each put in its group: by
 * thread for the collector and the compiler, else by the innermost frame that belongs to a code group.
 */
class FrameGroupTest {
    private static final String PASS = "dev/inferbench/engine/OrtProfiledRun.run_[j]";
    private static final String ENGINE = "dev/inferbench/engine/OrtEngine.run_[j]";
    private static final String SESSION = "ai/onnxruntime/OrtSession.run_[j]";
    private static final String JNI = "Java_ai_onnxruntime_OrtSession_run";
    private static final String ORT = "/home/u/.cache/inferbench/onnxruntime/0a1b/libonnxruntime.so";

    @Test
    void aKernelAndWhatItCallsAreOrts() {
        assertThat(FrameGroup.of("main", List.of("start_thread", PASS, ENGINE, SESSION, JNI, ORT, ORT)))
                .isEqualTo(FrameGroup.ORT);
        // libc's copy called from a kernel: the innermost group frame is ORT's
        assertThat(FrameGroup.of("main", List.of(PASS, ENGINE, SESSION, JNI, ORT, "__memmove_avx_unaligned_erms")))
                .isEqualTo(FrameGroup.ORT);
        // a worker of ORT's pool, no Java frame at all
        assertThat(FrameGroup.of(null, List.of("start_thread", ORT, ORT))).isEqualTo(FrameGroup.ORT);
        // the joined operator frames of --flame-events cpu,ops count as ORT's too
        assertThat(FrameGroup.of("main", List.of(SESSION, "[layer1.0]_[i]", "[layer1.0.conv1]_[i]", "Conv…Relu_[i]")))
                .isEqualTo(FrameGroup.ORT);
    }

    @Test
    void theBindingsJavaAndItsJniGlueAreTheBindings() {
        // the JDK's buffer copy under OnnxTensor.getFloatBuffer: a Java-side copy of the binding
        assertThat(FrameGroup.of("main", List.of(PASS, ENGINE, "ai/onnxruntime/OnnxTensor.getFloatBuffer_[j]",
                "java/nio/HeapFloatBuffer.put_[i]", "jlong_disjoint_arraycopy"))).isEqualTo(FrameGroup.BINDING);
        // the JNI library's own code, and the JVM's JNI functions it calls
        assertThat(FrameGroup.of("main", List.of(PASS, ENGINE, SESSION, JNI, "jni_GetObjectArrayElement")))
                .isEqualTo(FrameGroup.BINDING);
        assertThat(FrameGroup.of("main", List.of(PASS, "/x/libonnxruntime4j_jni.so"))).isEqualTo(FrameGroup.BINDING);
        assertThat(FrameGroup.of("main", List.of(PASS, "ai/djl/ndarray/NDArray.toFloatArray_[j]")))
                .isEqualTo(FrameGroup.BINDING);
    }

    @Test
    void ourOwnJavaAndWhatItCallsInTheJdkIsInferbenchs() {
        assertThat(FrameGroup.of("main", List.of(PASS, ENGINE))).isEqualTo(FrameGroup.INFERBENCH);
        assertThat(FrameGroup.of("main", List.of(PASS, ENGINE, "java/util/HashMap.get_[i]",
                "OptoRuntime::new_array_C"))).isEqualTo(FrameGroup.INFERBENCH);
    }

    @Test
    void collectorAndCompilerThreadsGoByThreadOrByTheirFrames() {
        assertThat(FrameGroup.of("GC Thread#1", List.of("start_thread", "G1ParEvacuateFollowersClosure::do_void")))
                .isEqualTo(FrameGroup.GC);
        assertThat(FrameGroup.of("G1 Conc#0", List.of("start_thread", "G1CMConcurrentMarkingTask::work")))
                .isEqualTo(FrameGroup.GC);
        // no thread name in the recording: the worker's loop says it
        assertThat(FrameGroup.of(null, List.of("thread_native_entry", "Thread::call_run", "WorkerThread::run",
                "G1EvacuateRegionsTask::work"))).isEqualTo(FrameGroup.GC);
        // the VM thread collecting at a safepoint is the collector's time; at another safepoint it is not
        assertThat(FrameGroup.of("VM Thread", List.of("VMThread::run", "VM_G1CollectForAllocation::doit")))
                .isEqualTo(FrameGroup.GC);
        assertThat(FrameGroup.of("VM Thread", List.of("VMThread::run", "VM_Deoptimize::doit")))
                .isEqualTo(FrameGroup.OTHER);
        assertThat(FrameGroup.of("C2 CompilerThread0", List.of("start_thread", "PhaseIdealLoop::build_loop_tree")))
                .isEqualTo(FrameGroup.JIT);
        assertThat(FrameGroup.of(null, List.of("JavaThread::thread_main_inner", "CompileBroker::compiler_thread_loop",
                "C2Compiler::compile_method"))).isEqualTo(FrameGroup.JIT);
    }

    @Test
    void whatNoGroupClaimsIsOther() {
        assertThat(FrameGroup.of("main", List.of("start_thread", "java/lang/Thread.run_[j]",
                "java/io/FileInputStream.read_[j]"))).isEqualTo(FrameGroup.OTHER);
        assertThat(FrameGroup.of("VM Periodic Task Thread", List.of("WatcherThread::run"))).isEqualTo(FrameGroup.OTHER);
        assertThat(FrameGroup.of("main", List.of())).isEqualTo(FrameGroup.OTHER);
    }

    /** The two sides' ORT extracts itself to a new temporary folder each time: their graphs must name it alike. */
    @Test
    void aLibraryFrameIsNamedByItsFileInTheStacks() {
        assertThat(FrameSampler.library("/tmp/onnxruntime-java689/libonnxruntime.so")).isEqualTo("libonnxruntime.so");
        assertThat(FrameSampler.library("ai/onnxruntime/OrtSession.run_[j]")).isEqualTo("ai/onnxruntime/OrtSession.run_[j]");
        assertThat(FrameSampler.library("__GI___libc_malloc")).isEqualTo("__GI___libc_malloc");
    }
}
