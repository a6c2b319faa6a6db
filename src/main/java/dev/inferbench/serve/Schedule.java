package dev.inferbench.serve;

import java.util.function.BooleanSupplier;

/**
 * The open loop's arrivals: each request at its time in a schedule fixed before the step ({@link Arrivals#schedule}),
 * whenever the others end. The scheduler sleeps to near each time and spins the rest ({@link OpenLoop#waitUntil}).
 */
final class Schedule implements OpenLoop.Source {
    private final long[] arrivalsNs;

    /** @param arrivalsNs intended starts, ns after the step's start, ascending */
    Schedule(long[] arrivalsNs) {
        this.arrivalsNs = arrivalsNs;
    }

    @Override
    public void issue(Issuer issuer, BooleanSupplier stop) {
        for (int i = 0; i < arrivalsNs.length && !stop.getAsBoolean(); i++) {
            long due = issuer.start() + arrivalsNs[i];
            OpenLoop.waitUntil(due);
            issuer.issue(i, due);
        }
    }

    @Override
    public void ended(int request, long nanos) {
        // the schedule does not wait for responses
    }

    @Override
    public int[] users(int warmup) {
        return new int[0];
    }

    @Override
    public boolean scheduled() {
        return true;
    }
}
