package dev.inferbench.metrics;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The peak of a stretch, on the real /proc of this JVM: a transient before the reset is not in it, but in the fork's. */
class ResidentPeakTest {
    private static final long MIB = 1024 * 1024;

    @AfterEach
    void forget() {
        ResidentPeak.clear();
    }

    private static sun.misc.Unsafe unsafe() throws ReflectiveOperationException {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (sun.misc.Unsafe) f.get(null);
    }

    @Test
    void aTransientBeforeTheResetIsInTheForksPeakOnly() throws Exception {
        assumeTrue(ProcStatus.read().peakRssKb() > 0, "Linux /proc");
        // a load's transient: 256 MiB touched and freed (mmap'd by malloc at this size, so handed back at once)
        long bytes = 256 * MIB;
        long address = unsafe().allocateMemory(bytes);
        unsafe().setMemory(address, bytes, (byte) 1);
        long withTransient = ProcStatus.read().peakRssKb();
        unsafe().freeMemory(address);
        assertThat(ResidentPeak.reset()).as("clear_refs writable").isTrue();
        ProcStatus after = ProcStatus.read();
        assertThat(after.peakRssKb()).as("the stretch's peak starts from the set now")
                .isLessThan(withTransient - 200 * 1024);
        // the kernel's per-CPU counters are read approximately: a few hundred kB either way
        assertThat(ResidentPeak.forkPeakKb(after.peakRssKb())).as("the fork's peak keeps the transient")
                .isGreaterThan(withTransient - 4 * 1024);
        assertThat(ResidentPeak.forkPeakKb(-1)).as("no /proc: no figure").isEqualTo(-1);
    }
}
