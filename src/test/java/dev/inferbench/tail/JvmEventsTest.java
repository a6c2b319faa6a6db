package dev.inferbench.tail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The recording in this JVM: a collection and a thread dump asked for inside a "call" read back as its causes. */
class JvmEventsTest {
    @Test
    void aRequestedCollectionAndAThreadDumpAreFoundInsideTheCallsThatAskedForThem(@TempDir Path dir) throws Exception {
        long thread = Thread.currentThread().getId();
        try (JvmEvents events = JvmEvents.start()) {
            long gcStart = System.nanoTime();
            System.gc();
            long gcEnd = System.nanoTime();
            long dumpStart = System.nanoTime();
            ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
            long dumpEnd = System.nanoTime();
            Path file = dir.resolve("events.jfr");
            events.dump(file);
            JvmEvents.Read read = JvmEvents.read(file);
            Attribution a = new Attribution(read.episodes());
            // the thread was stopped for the collection: little CPU of its own in the call
            Attribution.Attributed gc = a.of(new SlowCall(gcStart, gcEnd, 0, thread));
            assertThat(gc.main()).as("%s", gc).isEqualTo(Cause.GC);
            Attribution.Attributed dump = a.of(new SlowCall(dumpStart, dumpEnd, 0, thread));
            assertThat(dump.overlaps()).as("%s", dump).containsKey(Cause.SAFEPOINT);
            assertThat(dump.what().get(Cause.SAFEPOINT)).anyMatch(w -> w.contains("ThreadDump"));
            List<Episode> gcs = read.episodes().stream().filter(e -> e.cause() == Cause.GC).toList();
            assertThat(gcs).allSatisfy(e -> assertThat(e.end()).isGreaterThanOrEqualTo(e.start()));
        }
    }

    @Test
    void collectionsAreToldFromOtherVmOperationsByName() {
        assertThat(JvmEvents.collects("G1CollectFull")).isTrue();
        assertThat(JvmEvents.collects("ParallelGCSystemGC")).isTrue();
        assertThat(JvmEvents.collects("ThreadDump")).isFalse();
        assertThat(JvmEvents.collects("Deoptimize")).isFalse();
    }
}
