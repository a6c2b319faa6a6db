package dev.inferbench.cell;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class VaryingParamsTest {
    private static final Map<String, String> A = Map.of("model", "mlp-tiny", "engine", "ort", "batchSize", "1",
            "threads", "1", "spin", "on");
    private static final Map<String, String> B = Map.of("model", "mlp-tiny", "engine", "ort", "batchSize", "4",
            "threads", "2", "spin", "on");

    @Test
    void namesACellByWhatTellsItFromTheOthersInTheTablesOrder() {
        VaryingParams v = VaryingParams.of(List.of(A, B));
        assertThat(v.keys()).containsExactly("batchSize", "threads");
        assertThat(v.name(B)).isEqualTo("batchSize=4 threads=2");
        assertThat(v.name(B, Set.of("batchSize"))).isEqualTo("threads=2");
    }

    @Test
    void aParamOnlySomeCellsHaveDoesNotVaryAndOneCellVariesInNothing() {
        Map<String, String> fault = Map.of("fault", "none");
        assertThat(VaryingParams.of(List.of(A, fault)).keys()).isEmpty();
        assertThat(VaryingParams.of(List.of(A)).name(A)).isEmpty();
    }
}
