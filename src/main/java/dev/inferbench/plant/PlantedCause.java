package dev.inferbench.plant;

import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event a calibration's plant commits when it plants a cause in a call ({@link TailPlant}): the truth that
 * {@code --tail}'s attribution is held against. It is never read as a cause itself.
 */
@Name(PlantedCause.NAME)
@Label("inferbench planted cause")
@Category("inferbench")
@StackTrace(false)
@Enabled(true)
public final class PlantedCause extends jdk.jfr.Event {
    public static final String NAME = "inferbench.PlantedCause";

    /** The cause's key as {@code --tail} names it: gc, safepoint, descheduled. */
    @Label("cause")
    String cause;

    PlantedCause(String cause) {
        this.cause = cause;
    }
}
