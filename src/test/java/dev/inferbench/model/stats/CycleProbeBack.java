package dev.inferbench.model.stats;

import dev.inferbench.model.CycleProbe;

/** The other half of {@link CycleProbe}'s cycle: {@code model.stats} using {@code model} using {@code model.stats}. */
public final class CycleProbeBack {
    public int forth(CycleProbe other) {
        return other.hashCode();
    }
}
