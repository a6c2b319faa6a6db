package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CellListTest {

    @Test
    void readsGroupsSkippingCommentsAndBlankLines() throws BenchException {
        List<CellList.Group> groups = CellList.parse(List.of("# two", "", "batchSize=1 precision=fp32",
                "  batchSize=8,16   precision=fp16  "), "cells.txt");
        assertThat(groups).hasSize(2);
        assertThat(groups.get(0).line()).isEqualTo(3);
        assertThat(groups.get(0).values()).isEqualTo(Map.of("batchSize", List.of("1"), "precision", List.of("fp32")));
        assertThat(groups.get(1).values().get("batchSize")).containsExactly("8", "16");
    }

    @Test
    void refusesWhatIsNotAConfiguration() {
        for (String bad : new String[]{"batchSize=1 fp16", "=3", "batchSize=", "batchSize=1,", "batchSize=1 batchSize=8"}) {
            assertThatThrownBy(() -> CellList.parse(List.of(bad), "cells.txt")).as(bad)
                    .isInstanceOf(BenchException.class).hasMessageStartingWith("cells.txt line 1: ");
        }
        assertThatThrownBy(() -> CellList.parse(List.of("# only", ""), "cells.txt"))
                .hasMessage("cells.txt holds no configuration; expected one per line, e.g. batchSize=1 precision=fp32");
    }
}
