package dev.inferbench.tail;

/**
 * The names of the figures {@code --tail} gives each fork (JMH secondary metrics, each measured iteration giving the
 * fork so far): the fork's p99 and how many calls stand above it, per cause the share of those calls it is the main
 * cause of ({@code tail.gc}), the same of the fork's slowest ten ({@code tail.top10.gc}), the p99 with the calls
 * given that cause left out ({@code tail.without.gc}), and, on a calibration's stub, how the planted causes read.
 */
public final class TailMetrics {
    public static final String PREFIX = "tail.";
    /** The fork's 99th percentile of its calls, from the recorder's count and its slow calls, ms. */
    public static final String P99 = PREFIX + "p99";
    /** The calls above the fork's p99. */
    public static final String CALLS = PREFIX + "calls";
    /** Calls above the fork's p99 that the recorder did not keep (its threshold above them, or its ring full). */
    public static final String MISSED = PREFIX + "missed";
    /** Of the calls a calibration planted a cause in, the share given that cause, %. */
    public static final String PLANTED_HIT = PREFIX + "planted.hit";
    /** Of the fork's calls with nothing planted, the share the table gives a main cause, %. */
    public static final String UNPLANTED_CAUSED = PREFIX + "unplanted.caused";
    /** The slowest calls of a fork whose causes the {@code top10} figures give. */
    public static final int TOP = 10;

    private TailMetrics() {
    }

    /** {@code tail.gc}: the share of the calls above p99 whose main cause is {@code column}, %. */
    public static String share(String column) {
        return PREFIX + column;
    }

    /** {@code tail.top10.gc}: the same share of the fork's slowest ten calls, %. */
    public static String top(String column) {
        return PREFIX + "top" + TOP + "." + column;
    }

    /** {@code tail.without.gc}: the fork's p99 with the calls given that cause left out, ms. */
    public static String without(Cause cause) {
        return PREFIX + "without." + cause.key();
    }
}
