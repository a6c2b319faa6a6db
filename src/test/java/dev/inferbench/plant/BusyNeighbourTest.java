package dev.inferbench.plant;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BusyNeighbourTest {
    @AfterEach
    void clear() {
        System.clearProperty(BusyNeighbour.PROPERTY);
        System.clearProperty(BusyNeighbour.FORK_PROPERTY);
    }

    @Test
    void theForksAreNumbersFromOne() throws BenchException {
        assertThat(BusyNeighbour.parse("4, 2")).containsExactly(2, 4);
        for (String bad : new String[]{"0", "two", "2,,4", "-1", ""}) {
            assertThatThrownBy(() -> BusyNeighbour.parse(bad)).isInstanceOf(BenchException.class)
                    .hasMessageContaining("expected fork numbers from 1 joined by commas, e.g. 2,4");
        }
    }

    @Test
    void onlyTheNamedForksGetANeighbourAndItEndsWithTheFork() throws Exception {
        System.setProperty(BusyNeighbour.PROPERTY, "2");
        assertThat(BusyNeighbour.startIfPlanted()).as("no fork number: not a fork of a run").isNull();
        System.setProperty(BusyNeighbour.FORK_PROPERTY, "1");
        assertThat(BusyNeighbour.startIfPlanted()).isNull();
        System.setProperty(BusyNeighbour.FORK_PROPERTY, "2");
        BusyNeighbour n = BusyNeighbour.startIfPlanted();
        assertThat(n).isNotNull();
        Optional<ProcessHandle> p = ProcessHandle.of(n.pid());
        assertThat(p).hasValueSatisfying(h -> assertThat(h.isAlive()).isTrue());
        n.close();
        assertThat(p.get().isAlive()).isFalse();
    }
}
