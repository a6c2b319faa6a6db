package dev.inferbench.run;

import java.time.Duration;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The stopping rules of one invocation of the loop, from inferbench's own flags.
 *
 * @param maxForks    {@code --max-forks N}: stop after N forks have run in this invocation (the run stays resumable)
 * @param forkTimeout {@code --fork-timeout}: a fork still running after this is killed and recorded as failed;
 *                    null for the default, derived from the iteration settings
 * @param precision   {@code --precision P}: a cell needs no more forks once its interval's half-width is at most
 *                    this fraction of its mean (the rule of {@code stats.StoppingRule}, which also wants a few forks)
 * @param budget      {@code --budget}: no fork starts once this much time is spent; null for none
 * @param pacer       when the next fork may start: {@link Pacer#FREE}, or {@code --paced} (a line on stdin each)
 * @param spares      {@code --rerun-disturbed}: how many forks of a cell may replace forks run while the machine was
 *                    disturbed ({@link Spares}); none when the plan keeps every fork ({@code --keep-disturbed})
 *                    or a driver paces the forks ({@code --paced}: it pairs them and leaves disturbed pairs out)
 */
public record LoopSettings(OptionalInt maxForks, Duration forkTimeout, OptionalDouble precision, Duration budget,
                           Pacer pacer, Spares.Budget spares) {
    public static final LoopSettings DEFAULT = new LoopSettings(OptionalInt.empty(), null, OptionalDouble.empty(), null,
            Pacer.FREE);

    public LoopSettings(OptionalInt maxForks, Duration forkTimeout, OptionalDouble precision, Duration budget) {
        this(maxForks, forkTimeout, precision, budget, Pacer.FREE);
    }

    public LoopSettings(OptionalInt maxForks, Duration forkTimeout, OptionalDouble precision, Duration budget,
                        Pacer pacer) {
        this(maxForks, forkTimeout, precision, budget, pacer, Spares.Budget.DEFAULT);
    }

    /** The same rules with another pacer. */
    public LoopSettings withPacer(Pacer other) {
        return new LoopSettings(maxForks, forkTimeout, precision, budget, other, spares);
    }
}
