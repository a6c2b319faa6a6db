package dev.inferbench.compare;

import dev.inferbench.profile.FrameGroup;
import dev.inferbench.profile.LayerTimes;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.profile.PassFrames;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The frame block from crafted passes: a group's time per call is its share of the samples times the pass's call, a
 * planted change in one group is named with the paired interval and most of the call's change, and a pass without
 * samples leaves the block out.
 */
class WhereFramesTest {
    /** A side's true ms per call by group. */
    private static final Map<FrameGroup, Double> MS = new LinkedHashMap<>();

    static {
        MS.put(FrameGroup.INFERBENCH, 0.005);
        MS.put(FrameGroup.BINDING, 0.010);
        MS.put(FrameGroup.ORT, 0.080);
        MS.put(FrameGroup.GC, 0.001);
        MS.put(FrameGroup.JIT, 0.0005);
        MS.put(FrameGroup.OTHER, 0.002);
    }

    @Test
    void aPlantedBindingChangeIsNamedWithMostOfTheCall() {
        Random rnd = new Random(17);
        List<OperatorPass.Profiled> base = new ArrayList<>();
        List<OperatorPass.Profiled> head = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double drift = 1 + 0.05 * rnd.nextGaussian();
            base.add(pass(rnd, drift, 0, 4096));
            head.add(pass(rnd, drift, 0.030, 4096 + 65536));
        }
        Where w = Where.of(base, head, 0.95);
        WhereFrames f = w.frames();

        assertThat(f).isNotNull();
        assertThat(f.engine()).isEqualTo("perf_events");
        assertThat(f.named()).extracting(Where.Change::name).containsExactly(FrameGroup.BINDING.label());
        Where.Change binding = f.named().get(0);
        assertThat(binding.change().contains(0.030)).isTrue();
        assertThat(binding.share().estimate()).isBetween(0.8, 1.2);
        assertThat(binding.share().contains(1.0)).isTrue();
        assertThat(f.jvm().get(0).share().known()).isFalse(); // the JVM's figures are no share of the call
        // the groups apportion each pass's call: together their change is the call's
        assertThat(f.groups().stream().mapToDouble(c -> c.change().estimate()).sum())
                .isCloseTo(w.call().change().estimate(), within(1e-9));
        assertThat(f.jvm()).extracting(Where.Change::name)
                .containsExactly(WhereFrames.BYTES, WhereFrames.GC, WhereFrames.JIT);
        assertThat(f.jvm().get(0).change().estimate()).isCloseTo(65536, within(1.0));
    }

    @Test
    void aGroupsTimeIsItsShareOfTheSamplesTimesTheCall() {
        PassFrames p = new PassFrames("ctimer", 200, Map.of(FrameGroup.ORT.label(), 150L,
                FrameGroup.BINDING.label(), 50L), 0, 0, 0, "c.cpu.collapsed");
        assertThat(p.msPerCall(FrameGroup.ORT, 2.0)).isCloseTo(1.5, within(1e-12));
        assertThat(p.msPerCall(FrameGroup.GC, 2.0)).isZero();
    }

    @Test
    void aPassWithoutSamplesLeavesTheBlockOut() {
        Random rnd = new Random(1);
        List<OperatorPass.Profiled> base = new ArrayList<>();
        List<OperatorPass.Profiled> head = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            base.add(pass(rnd, 1, 0, 0));
            OperatorPass.Profiled h = pass(rnd, 1, 0, 0);
            head.add(i == 2 ? new OperatorPass.Profiled(h.benchmark(), h.params(), h.calls(), h.callMs(), h.layers())
                    : h);
        }
        assertThat(Where.of(base, head, 0.95).frames()).isNull();
    }

    /** A pass whose samples fall into the groups in proportion to their time (the call is their sum). */
    private static OperatorPass.Profiled pass(Random rnd, double drift, double bindingExtra, double bytes) {
        Map<String, Long> groups = new LinkedHashMap<>();
        double call = 0;
        Map<FrameGroup, Double> ms = new LinkedHashMap<>();
        for (Map.Entry<FrameGroup, Double> e : MS.entrySet()) {
            double v = (e.getValue() + (e.getKey() == FrameGroup.BINDING ? bindingExtra : 0)) * drift
                    * (1 + 0.03 * rnd.nextGaussian());
            ms.put(e.getKey(), v);
            call += v;
        }
        long samples = 0;
        for (Map.Entry<FrameGroup, Double> e : ms.entrySet()) {
            long n = Math.round(e.getValue() / 0.0001); // one sample per 0.1 µs of a call's time
            groups.put(e.getKey().label(), n);
            samples += n;
        }
        PassFrames frames = new PassFrames("perf_events", samples, groups, bytes, 0.001, 0.0001, "c.cpu.collapsed");
        return new OperatorPass.Profiled("b.infer", Map.of("model", "m"), 100, call,
                new LayerTimes("cell", 100, call * 0.8, List.of(), List.of(), null), frames);
    }
}
