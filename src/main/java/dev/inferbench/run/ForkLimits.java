package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.serve.ServingSpec;
import org.openjdk.jmh.runner.Defaults;
import org.openjdk.jmh.runner.options.TimeValue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How long a fork should take, for the plan's ETA, and how long it may take before it is killed.
 *
 * @param plan     the run's JMH iteration settings
 * @param override the user's --fork-timeout, null when not given
 */
record ForkLimits(Plan.Settings plan, Duration override) {

    /** JMH's settings for one fork, in seconds: warmup plus measurement. */
    double iterationSeconds() {
        int wi = plan.warmupIterations() != null ? plan.warmupIterations() : Defaults.WARMUP_ITERATIONS;
        int i = plan.iterations() != null ? plan.iterations() : Defaults.MEASUREMENT_ITERATIONS;
        return wi * seconds(plan.warmupTime(), Defaults.WARMUP_TIME) + i * seconds(plan.time(), Defaults.MEASUREMENT_TIME);
    }

    /**
     * What a fork of {@code cell} measures, in s: JMH's iterations, or for a serving cell its steps (each at least
     * its stepSeconds, a search several of them); NaN for closed-loop users, whose requests take what the service
     * takes (JMH's iteration settings do not time their step).
     */
    double measuredSeconds(Cell cell) {
        if (ServingSpec.closedLoop(cell.params())) {
            return Double.NaN;
        }
        double serving = ServingSpec.expectedSeconds(cell.params());
        return Double.isNaN(serving) ? iterationSeconds() : serving;
    }

    /**
     * Three times what a fork should take, and never under five minutes: generous for slow model loads. A serving
     * cell's may take its longest search.
     */
    Duration timeout(Cell cell) {
        if (override != null) {
            return override;
        }
        double longest = ServingSpec.longestSeconds(cell.params());
        double measured = Double.isNaN(longest) ? iterationSeconds() : Math.max(iterationSeconds(), longest);
        return Duration.ofSeconds(Math.max(300, Math.round(3 * (measured + 30))));
    }

    private static double seconds(String time, TimeValue fallback) {
        TimeValue t = time != null ? TimeValue.fromString(time) : fallback;
        return t.convertTo(TimeUnit.MILLISECONDS) / 1e3;
    }
}
