package dev.inferbench.compare;

import java.time.Instant;

/**
 * When one landed fork of a cell ran: its number in the run folder ({@code fork-N}) and its wall-clock start and end,
 * what tells compare that two runs were measured interleaved (or at the same time), fork by fork; and whether the
 * machine was disturbed during it (by compare-commits' record, {@link MachineRecord}, else by the fork's own canary and
 * other processes' CPU: {@code MachineState.disturbedForks}).
 */
public record ForkStamp(int fork, Instant start, Instant end, boolean disturbed) {

    public ForkStamp(int fork, Instant start, Instant end) {
        this(fork, start, end, false);
    }
}
