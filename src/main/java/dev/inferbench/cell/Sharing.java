package dev.inferbench.cell;

import dev.inferbench.BenchException;
import dev.inferbench.EnumLookup;

/**
 * How a cell's concurrent callers share the model, the choice a service owner makes: {@code shared}, one loaded model
 * (one ORT session, one DJL model) called by every caller, each with its own prepared input and outputs (and, on DJL,
 * its own predictor); {@code per-caller}, a model loaded by each caller, nothing shared but the process.
 */
public enum Sharing {
    SHARED("shared"), PER_CALLER("per-caller");

    private final String id;

    Sharing(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    public static Sharing parse(String id) throws BenchException {
        return EnumLookup.parse(values(), Sharing::id, "sharing", id);
    }
}
