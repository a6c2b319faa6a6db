package dev.inferbench.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The duet barrier between two forks, played by two threads sharing a folder: measured iterations start only when
 * both sides have arrived, warm-up runs in turns on the CPUs the script names, and a partner that never comes is
 * given up after the timeout instead of hanging the fork.
 */
@Timeout(60)
class DuetBarrierTest {
    private static final int WARMUPS = 2;
    private static final int MEASURED = 3;
    private static final Duration ITERATION = Duration.ofMillis(20);

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    /** Both sides of a duet through the barrier in {@code dir}, {@code first} warming up first, head {@code headDelayMs} slower. */
    private void playDuet(Path dir, String first, int headDelayMs) throws Exception {
        Files.writeString(dir.resolve(DuetBarrier.WARMUP_FILE), "first=" + first + "\ncpus=7\n");
        CompletableFuture<Void> base = CompletableFuture.runAsync(() -> play(dir, "base", 0));
        CompletableFuture<Void> head = CompletableFuture.runAsync(() -> play(dir, "head", headDelayMs));
        base.get(30, TimeUnit.SECONDS);
        head.get(30, TimeUnit.SECONDS);
    }

    @Test
    void measuredIterationsStartOnlyWhenBothHaveArrived(@TempDir Path dir) throws Exception {
        // head is the slow side: without the barrier base would start each iteration before head arrived
        playDuet(dir, "base", 30);

        for (int n = WARMUPS + 1; n <= WARMUPS + MEASURED; n++) {
            assertThat(at("base starts " + n)).as("base starts %d after head arrived", n).isGreaterThan(at("head arrives " + n));
            assertThat(at("head starts " + n)).as("head starts %d after base arrived", n).isGreaterThan(at("base arrives " + n));
            assertThat(Files.readString(dir.resolve("base." + n + ".met"))).startsWith("met=");
            assertThat(Files.readString(dir.resolve("head." + n))).startsWith("type=measurement arrived=").contains(" cpus=");
        }
        assertThat(Files.readString(dir.resolve("base.1"))).startsWith("type=warmup");
    }

    @Test
    void warmUpRunsInTurnsOnBothHalvesAndEachMeasuresOnItsOwn(@TempDir Path dir) throws Exception {
        playDuet(dir, "head", 0);

        String own = DuetBarrier.currentCpus();
        int firstMeasured = WARMUPS + 1;
        // head warms first, on both halves, moving there before its first warm-up iteration starts
        assertThat(at("head cpus=7")).isGreaterThan(at("head arrives 1")).isLessThan(at("head starts 1"));
        // base warms only after head has measured-ready and taken back its own CPUs
        assertThat(at("head cpus=" + own)).isGreaterThan(at("head starts " + WARMUPS)).isLessThan(at("base cpus=7"));
        assertThat(at("base starts 1")).isGreaterThan(at("head arrives " + firstMeasured));
        assertThat(at("base cpus=7")).isGreaterThan(at("base arrives 1")).isLessThan(at("base starts 1"));
        assertThat(at("base cpus=" + own)).isGreaterThan(at("base starts " + WARMUPS))
                .isLessThan(at("head starts " + firstMeasured));
        // measurement still together
        assertThat(at("head starts " + firstMeasured)).isGreaterThan(at("base arrives " + firstMeasured));
        assertThat(events.stream().filter(e -> e.contains(" cpus=")).count()).as("two moves a side: %s", events).isEqualTo(4);
    }

    @Test
    void aPartnerThatNeverComesIsGivenUpOnceAndTheForkGoesOn(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        DuetBarrier alone = barrier(dir, "head", Duration.ofMillis(50), new PrintStream(err, true, StandardCharsets.UTF_8));
        long start = System.nanoTime();
        alone.arrive(true, 1, ITERATION);
        for (int i = 0; i < MEASURED; i++) {
            alone.arrive(false, MEASURED, ITERATION);
        }
        double seconds = (System.nanoTime() - start) / 1e9;

        String said = err.toString(StandardCharsets.UTF_8);
        assertThat(said).contains("[inferbench] duet: base did not reach iteration 1 within")
                .contains("head runs the rest of this fork alone");
        assertThat(said.lines().count()).as("said once, not at every iteration: %s", said).isEqualTo(1);
        // one timeout (50 ms + one iteration), not one per iteration
        assertThat(seconds).isLessThan(1.0);
        assertThat(Files.readString(dir.resolve("head.4.met"))).startsWith("alone=");
        assertThat(events).as("no move to other CPUs without a partner").isEmpty();
    }

    @Test
    void aBadPropertyIsOneLine() {
        String before = System.getProperty(DuetBarrier.PROPERTY);
        try {
            System.setProperty(DuetBarrier.PROPERTY, "/tmp/duet:left");
            assertThatThrownBy(DuetBarrier::fromProperty).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("-Dinferbench.duet='/tmp/duet:left' is not DIR:SIDE or DIR:SIDE:turns with SIDE base or head");
        } finally {
            if (before == null) {
                System.clearProperty(DuetBarrier.PROPERTY);
            } else {
                System.setProperty(DuetBarrier.PROPERTY, before);
            }
        }
    }

    @Test
    void inTurnsNoTwoIterationsOverlapAndTheLeadAlternatesABBA(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(DuetBarrier.WARMUP_FILE), "first=head\n");
        // base arrives late every time: a side that did not wait for its turn would run beside the other
        CompletableFuture<Void> base = CompletableFuture.runAsync(() -> play(dir, "base", 15, true));
        CompletableFuture<Void> head = CompletableFuture.runAsync(() -> play(dir, "head", 0, true));
        base.get(30, TimeUnit.SECONDS);
        head.get(30, TimeUnit.SECONDS);

        List<String> runs = new ArrayList<>();
        String running = null;
        for (String e : List.copyOf(events)) {
            String[] w = e.split(" ");
            if (w[1].equals("starts")) {
                assertThat(running).as("%s started while %s ran: %s", e, running, events).isNull();
                running = w[0] + " " + w[2];
                runs.add(w[0].substring(0, 1) + w[2]);
            } else if (w[1].equals("ends")) {
                assertThat(running).isEqualTo(w[0] + " " + w[2]);
                running = null;
            }
        }
        // head leads the odd rounds, base the even ones: h b b h h b b h h b
        assertThat(runs).containsExactly("h1", "b1", "b2", "h2", "h3", "b3", "b4", "h4", "h5", "b5");
        assertThat(Files.readString(dir.resolve("head.1.done"))).startsWith("done=");
        assertThat(Files.readString(dir.resolve("base.5.met"))).startsWith("met=");
    }

    @Test
    void turnsAreReadFromTheProperty() {
        String before = System.getProperty(DuetBarrier.PROPERTY);
        try {
            System.setProperty(DuetBarrier.PROPERTY, "/tmp/duet:head:turns");
            assertThat(DuetBarrier.fromProperty()).extracting("turns", "side").containsExactly(true, "head");
            System.setProperty(DuetBarrier.PROPERTY, "/tmp/duet:head");
            assertThat(DuetBarrier.fromProperty()).extracting("turns", "side").containsExactly(false, "head");
        } finally {
            if (before == null) {
                System.clearProperty(DuetBarrier.PROPERTY);
            } else {
                System.setProperty(DuetBarrier.PROPERTY, before);
            }
        }
    }

    /** One side's fork: WARMUPS warm-up then MEASURED measured iterations, each reached {@code lateMs} late. */
    private void play(Path dir, String side, long lateMs) {
        play(dir, side, lateMs, false);
    }

    private void play(Path dir, String side, long lateMs, boolean turns) {
        DuetBarrier barrier = barrier(dir, side, turns, Duration.ofSeconds(10), System.err);
        try {
            for (int n = 1; n <= WARMUPS + MEASURED; n++) {
                Thread.sleep(lateMs);
                events.add(side + " arrives " + n);
                barrier.arrive(n <= WARMUPS, n <= WARMUPS ? WARMUPS : MEASURED, ITERATION);
                events.add(side + " starts " + n);
                Thread.sleep(ITERATION.toMillis());
                events.add(side + " ends " + n);
                barrier.leave();
            }
        } catch (Exception e) {
            throw new AssertionError(side + " failed", e);
        }
    }

    private DuetBarrier barrier(Path dir, String side, Duration timeout, PrintStream err) {
        return barrier(dir, side, false, timeout, err);
    }

    private DuetBarrier barrier(Path dir, String side, boolean turns, Duration timeout, PrintStream err) {
        return new DuetBarrier(dir, side, turns, timeout, cpus -> events.add(side + " cpus=" + cpus), () -> Duration.ZERO,
                err);
    }

    private int at(String event) {
        int i = events.indexOf(event);
        assertThat(i).as("'%s' in %s", event, events).isNotNegative();
        return i;
    }
}
