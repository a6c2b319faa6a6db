package dev.inferbench.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** libtorch's memory figures per operator, nested by time, summed into what a stretch left and its peak. */
class TorchMemoryTraceTest {

    private static TorchMemoryTrace trace(String events) throws Exception {
        return TorchMemoryTrace.parse(new ObjectMapper().readTree("[" + events + "]"), "test");
    }

    private static String event(String name, double ts, double dur, String mem) {
        return "{\"name\": \"" + name + "\", \"ph\": \"X\", \"ts\": " + ts + ", \"dur\": " + dur
                + ", \"tid\": 1, \"pid\": \"CPU Functions\", \"cpu mem\": \"" + mem + "\", \"args\": {}}";
    }

    @Test
    void unitsArePowersOf1024AndMayBeNegative() throws Exception {
        assertThat(TorchMemoryTrace.bytes("32.00 Kb", "t")).isEqualTo(32768.0);
        assertThat(TorchMemoryTrace.bytes("-3.50 Mb", "t")).isEqualTo(-3.5 * 1048576);
        assertThat(TorchMemoryTrace.bytes("4 b", "t")).isEqualTo(4.0);
        assertThatThrownBy(() -> TorchMemoryTrace.bytes("lots", "f.json")).isInstanceOf(BenchException.class)
                .hasMessage("libtorch's profile f.json has a memory figure 'lots'; expected a number and b, Kb, Mb or Gb");
    }

    /**
     * A forward that keeps everything (matmul holding mm, then relu): net is the sum of the top-level events only (the
     * nested mm is inside matmul's figure), and the peak is the same.
     */
    @Test
    void nestedEventsAreCountedOnceInTheNet() throws Exception {
        TorchMemoryTrace t = trace(String.join(",", event("aten::matmul", 10, 100, "1.00 Mb"),
                event("aten::mm", 20, 80, "1.00 Mb"), event("aten::relu", 120, 10, "1.00 Mb")));
        assertThat(t.events()).isEqualTo(3);
        assertThat(t.net()).isEqualTo(2 * 1048576.0);
        assertThat(t.peak()).isEqualTo(2 * 1048576.0);
    }

    /**
     * A backward step that allocates 4 MiB in a nested call, then frees 3 MiB of it before it ends (net 1 MiB): the
     * peak sees the 4 MiB inside it, on top of what the earlier step left (2 MiB).
     */
    @Test
    void thePeakLooksInsideAnEventThatFreesBeforeItEnds() throws Exception {
        TorchMemoryTrace t = trace(String.join(",", event("evaluate_function: A", 0, 10, "2.00 Mb"),
                event("evaluate_function: B", 20, 50, "1.00 Mb"), event("aten::mm", 25, 10, "4.00 Mb"),
                event("aten::free_part", 40, 10, "-3.00 Mb"), event("evaluate_function: C", 80, 5, "-1.00 Mb")));
        assertThat(t.net()).isEqualTo(2 * 1048576.0);
        assertThat(t.peak()).isEqualTo(6 * 1048576.0);
    }

    @Test
    void eventsWithoutMemoryAreNotOperators() throws Exception {
        TorchMemoryTrace t = trace(event("aten::add", 0, 1, "8 b") + ", {\"name\": \"thread\", \"ph\": \"M\"}");
        assertThat(t.events()).isEqualTo(1);
        assertThat(t.net()).isEqualTo(8.0);
    }
}
