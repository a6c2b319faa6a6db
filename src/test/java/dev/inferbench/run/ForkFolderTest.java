package dev.inferbench.run;

import dev.inferbench.plant.BusyNeighbour;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ForkFolderTest {
    @Test
    void everyForkIsToldItsNumberAndWhereItsCrashLogGoes() {
        Options user = new OptionsBuilder().jvmArgsAppend("-Dinferbench.stub=call=2ms").build();
        java.util.Collection<String> append = ForkFolder.forkOptions(user, Path.of("/tmp/run/forks/c/fork-5"), 5).getJvmArgsAppend()
                .get();
        assertThat(append).containsExactly("-Dinferbench.stub=call=2ms", "-D" + BusyNeighbour.FORK_PROPERTY + "=5",
                "-XX:ErrorFile=/tmp/run/forks/c/fork-5/hs_err_pid%p.log");
        Options own = new OptionsBuilder().jvmArgs("-XX:ErrorFile=/var/log/x.log").build();
        assertThat(ForkFolder.forkOptions(own, Path.of("/tmp/f"), 2).getJvmArgsAppend().get())
                .as("the user's own crash log stands").containsExactly("-Dinferbench.fork=2");
        assertThat(ForkFolder.FORK_PROPERTY).isEqualTo(BusyNeighbour.FORK_PROPERTY);
    }
}
