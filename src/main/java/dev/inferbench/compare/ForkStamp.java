package dev.inferbench.compare;

import java.time.Instant;

/**
 * When one landed fork of a cell ran: its number in the run folder ({@code fork-N}) and its wall-clock start and end.
 * What tells compare that two runs were measured interleaved (or at the same time), fork by fork.
 */
public record ForkStamp(int fork, Instant start, Instant end) {
}
