package dev.inferbench.profile;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The join on a known synthetic trace: one session whose profiler started at {@link #ZERO}, a calling thread (10)
 * running conv1 (Conv, 100-150 µs) and relu1 (Relu, 160-190 µs) inside one model_run (90-200 µs), a second caller
 * (11) running add1 (Add, 165-175 µs) in its own run, a later run of thread 10 (500-600 µs), and samples placed at chosen instants on the callers and on a
 * worker (20) that never called the session.
 */
class OperatorJoinTest {
    static final long ZERO = 1_795_630_505_000_000_000L;
    static final String LIB = "/cache/libonnxruntime.so";
    static final List<String> CALL = List.of("bench/Infer.call_[j]", "ai/onnxruntime/OrtSession.run_[0]", LIB, LIB);
    static final List<String> JAVA = List.of("bench/Infer.call_[j]", "bench/Blackhole.consume_[j]");
    static final List<String> WORKER = List.of("clone3", "start_thread", LIB);

    static KernelTimeline timeline() {
        OrtProfile session = new OrtProfile(List.of(
                new OrtProfile.Kernel("conv1", "Conv", 100, 50, null, 10),
                new OrtProfile.Kernel("relu1", "Relu", 160, 30, null, 10),
                new OrtProfile.Kernel("add1", "Add", 165, 10, null, 11)),
                List.of(new OrtProfile.Run(90, 110, 10), new OrtProfile.Run(160, 20, 11), new OrtProfile.Run(500, 100, 10)));
        return new KernelTimeline(List.of(Map.entry(ZERO, session)));
    }

    static OperatorJoin.Sample at(long tid, long micros, List<String> frames) {
        return new OperatorJoin.Sample(tid, ZERO + micros * 1000, frames);
    }

    static KernelName name(OrtProfile.Kernel k) {
        return new KernelName(k.node().equals("add1") ? "" : "stage1.block1", k.node(), k.opType());
    }

    static final List<OperatorJoin.Sample> SAMPLES = List.of(
            at(10, 120, CALL),       // conv1 on the caller
            at(10, 149, CALL),       // conv1, 1 µs before its end
            at(10, 155, CALL),       // between conv1 and relu1, inside the run
            at(10, 95, CALL),        // inside the run before its first kernel
            at(10, 185, CALL),       // relu1
            at(10, 250, CALL),       // in the library after the run: the binding's own work
            at(10, 130, JAVA),       // Java on the caller inside a run: what a clock offset would cause
            at(10, 300, JAVA),       // Java on the caller between runs, as it should be
            at(20, 120, WORKER),     // a worker while only conv1 runs
            at(20, 170, WORKER),     // a worker while relu1 and add1 both run
            at(20, 186, List.of(LIB)), // a worker whose stack the unwinder cut to one frame, while relu1 runs
            at(20, 195, WORKER),     // a worker while no kernel runs
            at(20, -5, WORKER),      // before ORT's profiler started
            at(20, 400, JAVA));      // another thread outside the library: left as it is

    @Test
    void everyLibrarySampleGetsTheKernelOfItsInstantOrSaysWhyNot() {
        OperatorJoin.Joined j = OperatorJoin.join(SAMPLES, timeline(), k -> name(k).frames());
        String call = "bench/Infer.call_[j];ai/onnxruntime/OrtSession.run_[0];";
        String lib2 = LIB + ";" + LIB;
        String conv = "[stage1]_[i];[stage1.block1]_[i];[conv1]_[i];Conv_[i];";
        String relu = "[stage1]_[i];[stage1.block1]_[i];[relu1]_[i];Relu_[i];";
        assertThat(j.stacks()).containsExactly(
                Map.entry(call + conv + lib2, 2L),
                Map.entry(call + "[between kernels]_[i];" + lib2, 2L),
                Map.entry(call + relu + lib2, 1L),
                Map.entry(call + "[outside model_run]_[i];" + lib2, 1L),
                Map.entry("bench/Infer.call_[j];bench/Blackhole.consume_[j]", 3L),
                Map.entry("[ORT thread pool];" + conv + "clone3;start_thread;" + LIB, 1L),
                Map.entry("[ORT thread pool];[overlapping kernels]_[i];clone3;start_thread;" + LIB, 1L),
                Map.entry("[ORT thread pool];" + relu + LIB, 1L),
                Map.entry("[ORT thread pool];[thread pool wait]_[i];clone3;start_thread;" + LIB, 1L),
                Map.entry("[ORT thread pool];[no ORT profile]_[i];clone3;start_thread;" + LIB, 1L));
        assertThat(j.samples()).isEqualTo(14);
        assertThat(j.given()).hasSize(11);
        assertThat(j.callerElsewhere()).as("Java samples of the calling thread while the profile ran").isEqualTo(2);
        assertThat(j.callerElsewhereInRun()).as("the one placed inside a run").isEqualTo(1);
    }

    @Test
    void sharesSetTheSamplesBesideOrtsKernelTime() {
        KernelTimeline t = timeline();
        OperatorJoin.Joined j = OperatorJoin.join(SAMPLES, t, k -> name(k).frames());
        // the window runs from the first sample (-5 µs) to the last (400 µs): every kernel counts whole
        OperatorShares s = OperatorShares.of(j, t, OperatorJoinTest::name, ZERO - 5_000, ZERO + 400_000);
        assertThat(s.operators()).extracting(OperatorShares.Row::name).containsExactly("Conv", "Relu", "Add");
        OperatorShares.Row conv = s.operators().get(0);
        assertThat(conv.kernelShare()).isCloseTo(50.0 / 90, within(1e-12));
        assertThat(conv.callerShare()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(conv.callerSamples()).isEqualTo(2);
        assertThat(conv.allShare()).isCloseTo(3.0 / 5, within(1e-12));
        assertThat(s.operators().get(2).callerSamples()).as("nothing sampled add1's own thread").isZero();
        assertThat(s.modules()).extracting(OperatorShares.Row::name).containsExactly("stage1.block1", "");
        assertThat(s.modules().get(0).kernelShare()).isCloseTo(80.0 / 90, within(1e-12));
        assertThat(s.labels()).containsExactly(Map.entry("[between kernels]", 2L), Map.entry("[no ORT profile]", 1L),
                Map.entry("[outside model_run]", 1L), Map.entry("[overlapping kernels]", 1L),
                Map.entry("[thread pool wait]", 1L));
        assertThat(OperatorShares.largestGap(s.operators())).isCloseTo((2.0 / 3 - 50.0 / 90) * 100, within(1e-9));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.print(new PrintStream(out, true, StandardCharsets.UTF_8), 2);
        assertThat(out.toString(StandardCharsets.UTF_8).lines())
                .contains("samples in libonnxruntime: 11, given a kernel 5, [between kernels] 2, [no ORT profile] 1, "
                        + "[outside model_run] 1, [overlapping kernels] 1, [thread pool wait] 1")
                .contains("clock check: 1 of 2 calling-thread samples outside the library fell inside a model_run "
                        + "(0 when both recordings are on one clock)");
    }

    @Test
    void aKernelHoldsItsStartButNotItsEnd() {
        KernelTimeline t = timeline();
        assertThat(t.kernelOn(10, ZERO + 100_000).kernel().node()).isEqualTo("conv1");
        assertThat(t.kernelOn(10, ZERO + 150_000)).isNull();
        assertThat(t.kernelOn(11, ZERO + 170_000).kernel().node()).isEqualTo("add1");
        assertThat(t.kernelsAt(ZERO + 170_000)).hasSize(2);
        assertThat(t.isCaller(20)).isFalse();
        assertThat(t.covers(ZERO - 1)).isFalse();
        assertThat(t.covers(ZERO + 599_999)).isTrue();
        assertThat(t.covers(ZERO + 600_000)).as("after the last event").isFalse();
    }
}
