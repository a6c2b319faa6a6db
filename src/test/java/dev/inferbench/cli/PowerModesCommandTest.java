package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.commits.PowerModes;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** power-modes' and power-ledger's new flags: what they parse into and what they refuse before any comparison. */
class PowerModesCommandTest {
    private static final Path CHECKOUT = Path.of("/checkout");

    @Test
    void defaultsAreTheEarlierProofs() throws Exception {
        PowerModes.Request r = PowerModesCommand.parse(List.of(), CHECKOUT);
        assertThat(r.modes()).containsExactly(PowerModes.Mode.INTERLEAVED, PowerModes.Mode.PIN, PowerModes.Mode.DUET);
        assertThat(List.of(r.rounds(), r.minutes(), r.budgetMinutes(), r.slowdown())).containsExactly(2, 3, 10, 0);
        assertThat(r.cell().model()).isEqualTo("mlp-tiny");
        PowerModes.Request t = PowerModesCommand.parse(List.of("--modes", "turns", "--budget", "20", "--out", "o"),
                CHECKOUT);
        assertThat(t.modes()).containsExactly(PowerModes.Mode.TURNS);
        assertThat(t.budgetMinutes()).isEqualTo(20);
        assertThat(t.out()).isEqualTo(Path.of("/checkout/o"));
    }

    @Test
    void refusesBadFlags() {
        for (List<String> bad : List.of(List.of("--modes", "pin,solo"), List.of("--modes", "pin,pin"),
                List.of("--rounds", "0"), List.of("--minutes", "1.5"), List.of("--slowdown", "60"),
                List.of("--cell", "bert"), List.of("--forks", "3"), List.of("--out"))) {
            assertThatThrownBy(() -> PowerModesCommand.parse(bad, CHECKOUT)).as(bad.toString())
                    .isInstanceOf(BenchException.class);
        }
    }

    @Test
    void powerLedgerTakesTwoBuildsOfferingOfflineOnlyWithThem() throws Exception {
        var r = PowerLedgerCommand.parse(List.of("--cell", "mlp-tiny", "--slowdown", "0", "--two-builds", "HEAD~1",
                "--offline", "--each", "flock /tmp/l"));
        assertThat(r.twoBuilds()).isEqualTo("HEAD~1");
        assertThat(r.offline()).isTrue();
        assertThat(PowerLedgerCommand.each(List.of("--each", " flock  /tmp/l "))).containsExactly("flock", "/tmp/l");
        assertThat(PowerLedgerCommand.each(List.of("--count", "2"))).isEmpty();
        assertThatThrownBy(() -> PowerLedgerCommand.parse(List.of("--cell", "mlp-tiny", "--slowdown", "0", "--offline")))
                .isInstanceOf(BenchException.class).hasMessageContaining("--two-builds");
        assertThatThrownBy(() -> PowerLedgerCommand.parse(List.of("--cell", "mlp-tiny", "--slowdown", "0", "--each",
                " "))).isInstanceOf(BenchException.class).hasMessageContaining("--each needs a command");
    }
}
