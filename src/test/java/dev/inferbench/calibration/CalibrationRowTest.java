package dev.inferbench.calibration;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A row's allowance: its share of the planted value, or its floor where that is more; and how the table says so. */
class CalibrationRowTest {
    private static final CalibrationRows.Run RUN = new CalibrationRows.Run("r", List.of());

    @Test
    void aFloorAllowsAFixedAmountWhereTheShareIsLess() {
        CalibrationRows.Row p95 = new CalibrationRows.Row("serve.p95", 4, "ms", 0.1, true, false, RUN, "serve.p95")
                .atLeast(0.5);
        assertThat(p95.allowed()).isEqualTo(0.5);
        assertThat(p95.holds(4.45)).isTrue();
        assertThat(p95.holds(4.55)).isFalse();
        assertThat(p95.holds(3.45)).isFalse();
        CalibrationRows.Row p99 = new CalibrationRows.Row("serve.p99", 14.4, "ms", 0.1, true, false, RUN, "serve.p99")
                .atLeast(0.5);
        assertThat(p99.allowed()).isCloseTo(1.44, org.assertj.core.data.Offset.offset(1e-12)); // the share is more
        assertThat(p99.holds(15.9)).isFalse();
    }

    @Test
    void withoutAFloorTheShareAlone() {
        CalibrationRows.Row row = new CalibrationRows.Row("serve.p50", 4, "ms", 0.1, true, false, RUN, "serve.p50");
        assertThat(row.holds(4.39)).isTrue();
        assertThat(row.holds(4.45)).isFalse();
        assertThat(row.holds(Double.NaN)).isFalse();
    }

    @Test
    void theTableSaysBoth() {
        CalibrationRows.Row row = new CalibrationRows.Row("serve.p95", 4, "ms", 0.1, true, false, RUN, "serve.p95")
                .atLeast(0.5);
        assertThat(CalibrationTable.line(new CalibrationTable.Outcome(row, 4.4)))
                .isEqualTo("| serve.p95 | 4 ms | 4.40 ms | +10.0 % | ± 10 % or 0.5 ms | holds |");
    }

    @Test
    void aPlantedValueIsExactAndAReadingKeepsItsDigits() {
        CalibrationRows.Row late = new CalibrationRows.Row("serve.late", 0.5, "%", 0.1667, false, false, RUN, "serve.late");
        assertThat(CalibrationTable.line(new CalibrationTable.Outcome(late, 0.5)))
                .as("the late share planted at 1 in 200, read at 3 of 600")
                .startsWith("| serve.late | 0.5 % | 0.5000 % |");
        assertThat(CalibrationTable.exact(0.0125)).isEqualTo("0.0125");
        assertThat(CalibrationTable.exact(2.5)).isEqualTo("2.5");
        assertThat(CalibrationTable.exact(-0.25)).isEqualTo("-0.25");
        assertThat(CalibrationTable.exact(1500)).isEqualTo("1500");
        assertThat(CalibrationTable.exact(0)).isEqualTo("0");
    }
}
