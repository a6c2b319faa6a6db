package dev.inferbench.engine;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlantTest {
    @Test
    void readsEveryKeyInItsUnit() throws BenchException {
        Plant p = Plant.parse("call=1ms, cpu=250us,alloc=4096,prefill=0.02s,token=5ms");
        assertThat(p).isEqualTo(new Plant(1_000_000, 250_000, 4096, 20_000_000, 5_000_000));
        assertThat(Plant.parse("alloc=0")).isEqualTo(Plant.NONE);
    }

    @Test
    void refusesWhatCannotBePlantedExactly() {
        assertThatThrownBy(() -> Plant.parse("alloc=100")).hasMessageContaining("expected 0 or a multiple of 8");
        assertThatThrownBy(() -> Plant.parse("alloc=8")).hasMessageContaining("expected 0 or a multiple of 8");
        assertThatThrownBy(() -> Plant.parse("call=1")).hasMessageContaining("cannot read 'call=1'");
        assertThatThrownBy(() -> Plant.parse("alloc=64ms")).hasMessageContaining("cannot read 'alloc=64ms'");
        assertThatThrownBy(() -> Plant.parse("speed=1ms")).hasMessageStartingWith("-Dinferbench.stub=speed=1ms: cannot read");
    }

    /** The planted bytes are the call's bytes on the thread's own counter: the array and its header, nothing else. */
    @Test
    void allocatesExactlyThePlantedBytes() throws BenchException {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int n : new int[] {0, 16, 64, 4096}) {
            Plant p = Plant.parse("alloc=" + n);
            Object keep = null;
            for (int warm = 0; warm < 10_000; warm++) {
                keep = p.call();
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            keep = p.call();
            long after = threads.getCurrentThreadAllocatedBytes();
            assertThat(after - before).as("alloc=%d", n).isEqualTo(n);
            assertThat(keep == null).isEqualTo(n == 0);
        }
    }

    @Test
    void spinsAtLeastThePlantedCpuTime() throws BenchException {
        var threads = ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadCpuTime();
        Plant.parse("cpu=20ms").call();
        assertThat(threads.getCurrentThreadCpuTime() - before).isGreaterThanOrEqualTo(20_000_000);
    }
}
