package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {
    /** JMH's iteration settings a closed-loop fork does not follow: 5 x 10 s warm-up and 5 x 10 s measured. */
    private static final ForkLimits LIMITS = new ForkLimits(new Plan.Settings(5, "10 s", 5, "10 s"), null);

    private static Cell load(Map<String, String> extra) {
        Map<String, String> params = new java.util.HashMap<>(Map.of("model", "llama-tiny", "batchSize", "1",
                "promptLen", "128", "outputLen", "64", "rate", "1", "requests", "100", "stepSeconds", "10"));
        params.putAll(extra);
        return new Cell("dev.inferbench.bench.GenerationLoadBenchmark.serve", "sample", params);
    }

    private static String plan(double perFork, int remaining, int unknown) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (Progress p = new Progress(new PrintStream(bytes, true, StandardCharsets.UTF_8), perFork, false)) {
            p.plan(2, 1, remaining, unknown, 0, 0, "results/x");
            p.fork(0, remaining, 1, 2, "cell", 1, 1);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aClosedLoopForkHasNoPlannedTimeWhereAnOpenLoopStepHasItsRequestsOverItsRate() {
        assertThat(LIMITS.measuredSeconds(load(Map.of("users", "4")))).isNaN();
        // the open loop's step: 100 requests at 1 req/s, and its warm-up share: JMH's 100 s are not what it takes
        double open = LIMITS.measuredSeconds(load(Map.of("users", "0")));
        assertThat(open).isGreaterThanOrEqualTo(100).isLessThan(LIMITS.iterationSeconds() * 2);
        assertThat(LIMITS.measuredSeconds(load(Map.of()))).isEqualTo(open);
    }

    @Test
    void aPlanOfClosedLoopForksSaysItsTimeIsNotKnownInsteadOfJmhsIterations() {
        String out = plan(Double.NaN, 2, 2);
        assertThat(out).contains("2 forks to run, time not known until one has run (closed-loop users")
                .contains("ETA unknown").doesNotContain("about");
    }

    @Test
    void aMixedPlanEstimatesTheForksItKnowsAndCountsTheOthers() {
        String out = plan(55, 3, 1);
        // 2 forks of 55 s and the start-up guess of 5 s each
        assertThat(out).contains("3 forks to run, about 2m00s for 2 of them, and 1 fork of closed-loop users whose"
                + " time is not known until one has run");
        assertThat(plan(55, 3, 0)).contains("3 forks to run, about 3m00s;").contains("ETA 3m00s");
    }
}
