package dev.inferbench.tail;

import java.util.List;

/**
 * What can make one call slow, as {@code --tail} tells them apart. The order is the order of precedence: where two
 * causes overlap a call by the same time, the first is its main cause. {@link #DESCHEDULED} is what is left of the
 * call's time off its CPU once the others are taken off.
 */
public enum Cause {
    /** A stop-the-world pause of the collector (JFR's GC pause phases, and the safepoint that ran them). */
    GC("gc", "GC pauses"),
    /** Any other safepoint: every Java thread stopped for a VM operation (a thread dump, a deoptimization, ...). */
    SAFEPOINT("safepoint", "safepoints"),
    /** The calling thread's own waits: parked, blocked on or waiting for a monitor, sleeping. */
    WAIT("wait", "waits"),
    /** The calling thread off its CPU with none of the above to explain it: another thread or process ran. */
    DESCHEDULED("descheduled", "descheduled"),
    /** A frame of the calling thread deoptimized during the call (it runs on interpreted). */
    DEOPT("deopt", "deoptimizations"),
    /** JIT compilation during the call (compiler threads compete for the CPU; the code is not compiled yet). */
    COMPILE("compile", "JIT compilation");

    /** The tail table's share of calls no cause explains. */
    public static final String UNEXPLAINED = "unexplained";

    private final String key;
    private final String words;

    Cause(String key, String words) {
        this.key = key;
        this.words = words;
    }

    /** The cause in metric names: {@code tail.gc}. */
    public String key() {
        return key;
    }

    /** The cause in a summary line: {@code 62 % GC pauses}. */
    public String words() {
        return words;
    }

    /** Every cause's key and then {@link #UNEXPLAINED}: the columns of a tail table. */
    public static List<String> columns() {
        List<String> keys = new java.util.ArrayList<>();
        for (Cause c : values()) {
            keys.add(c.key);
        }
        keys.add(UNEXPLAINED);
        return List.copyOf(keys);
    }

    /** The cause of a key, or null ({@link #UNEXPLAINED} and anything else). */
    public static Cause of(String key) {
        for (Cause c : values()) {
            if (c.key.equals(key)) {
                return c;
            }
        }
        return null;
    }
}
