package dev.inferbench.model;

import dev.inferbench.model.stats.CycleProbeBack;

/**
 * Half of a deliberate cycle between {@code model} and {@code model.stats}, for ArchitectureTest's check that the
 * cycle rule sees sub-packages (test code, so never part of the classes the real rule checks).
 */
public final class CycleProbe {
    public int back(CycleProbeBack other) {
        return other.hashCode();
    }
}
