package dev.inferbench.tail;

import jdk.jfr.Category;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A JFR event that holds {@link System#nanoTime} at the moment JFR stamps it: how the recording's timestamps and the
 * recorder's clock are put on one line, whatever clock JFR's ticks come from.
 */
@Name(ClockMark.NAME)
@Label("inferbench clock mark")
@Category("inferbench")
@StackTrace(false)
@Enabled(true)
final class ClockMark extends jdk.jfr.Event {
    static final String NAME = "inferbench.ClockMark";

    @Label("nanoTime")
    long nanoTime;

    /** Commits a mark now. */
    static void now() {
        ClockMark m = new ClockMark();
        m.begin();
        m.nanoTime = System.nanoTime();
        m.commit();
    }
}
