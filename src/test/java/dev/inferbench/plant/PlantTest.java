package dev.inferbench.plant;

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
    void readsTheTailTheLoadAndTheMemory() throws BenchException {
        Plant p = Plant.parse("call=2ms,tail=20ms/50,load=2s,first=200ms,native=512MiB,heap=256MiB");
        assertThat(p).isEqualTo(new Plant(2_000_000, 0, 0, 0, 0, 20_000_000, 50, 2_000_000_000L, 200_000_000,
                512L << 20, 256L << 20));
        assertThatThrownBy(() -> Plant.parse("tail=20ms/1")).hasMessageContaining("tail= with a duration");
        assertThatThrownBy(() -> Plant.parse("tail=20ms")).hasMessageContaining("cannot read 'tail=20ms'");
        assertThatThrownBy(() -> Plant.parse("native=4096MiB")).hasMessageContaining("below 2048");
        assertThatThrownBy(() -> Plant.parse("heap=1GiB")).hasMessageContaining("cannot read 'heap=1GiB'");
    }

    /** The n-th call spins the tail on every tailEvery-th call, the first call's extra once, the call's time else. */
    @Test
    void theTailAndTheFirstCallLandOnTheirCalls() throws BenchException {
        Plant p = Plant.parse("call=1ms,tail=8ms/4,first=5ms");
        long[] took = new long[9];
        for (int n = 1; n <= 8; n++) {
            long start = System.nanoTime();
            p.call(n);
            took[n] = System.nanoTime() - start;
        }
        assertThat(took[1]).isGreaterThanOrEqualTo(6_000_000); // the first: 1 ms + 5 ms
        assertThat(took[4]).isGreaterThanOrEqualTo(8_000_000);
        assertThat(took[8]).isGreaterThanOrEqualTo(8_000_000);
        for (int n : new int[] {2, 3, 5, 6, 7}) {
            // at least the call; a slow machine may take longer, never the tail's 8 ms less a preemption's worth
            assertThat(took[n]).as("call %d", n).isGreaterThanOrEqualTo(1_000_000);
        }
    }

    /** What the load holds: the native buffer's every page and the heap's arrays, kept until the engine drops them. */
    @Test
    void theLoadHoldsThePlantedMemory() throws BenchException {
        Object[] held = Plant.parse("native=4MiB,heap=3MiB").load();
        assertThat(((java.nio.ByteBuffer) held[0]).capacity()).isEqualTo(4 << 20);
        assertThat(((java.nio.ByteBuffer) held[0]).isDirect()).isTrue();
        byte[][] heap = (byte[][]) held[1];
        assertThat(heap.length).isEqualTo(3);
        for (byte[] a : heap) {
            assertThat(a.length).isEqualTo(1 << 20);
        }
        assertThat(Plant.parse("load=1ms").load()).isNull();
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
