package dev.inferbench.serve;


/**
 * What one open-loop step saw. Latency is from each request's intended start (its arrival in the schedule) to the end
 * of its call, so time spent queued behind earlier requests counts, and a scheduler that fell behind does not hide it
 * (no coordinated omission). A request still unserved when the step gave up waiting is dropped; its latency is
 * counted as the wait it had so far, a lower bound, so a step that drops never looks fast.
 *
 * @param offeredPerSecond the rate the schedule asked for
 * @param latenciesNs      every request's latency, sorted, dropped ones included
 * @param dropped          requests not served before the step's drain limit
 * @param late             requests the scheduler issued more than {@link OpenLoop#LATE_NS} after their time
 * @param queueMean        requests waiting, on average, when a request arrived
 * @param queueMax         the most requests waiting when one arrived
 * @param servingNs        from the first arrival to the last call's end
 * @param calls            engine calls that served the completed requests (fewer than them with dynamic batching)
 */
public record StepResult(double offeredPerSecond, long[] latenciesNs, int dropped, int late, double queueMean,
                         int queueMax, long servingNs, long calls) {

    /** A step that served each completed request in a call of its own. */
    public StepResult(double offeredPerSecond, long[] latenciesNs, int dropped, int late, double queueMean,
                      int queueMax, long servingNs) {
        this(offeredPerSecond, latenciesNs, dropped, late, queueMean, queueMax, servingNs,
                latenciesNs.length - dropped);
    }

    /** Requests served per engine call, on average: above 1 only with dynamic batching. */
    public double requestsPerCall() {
        return calls == 0 ? Double.NaN : completed() / (double) calls;
    }

    public int requests() {
        return latenciesNs.length;
    }

    public int completed() {
        return latenciesNs.length - dropped;
    }

    /** Requests served per second: completed requests over the time from the first arrival to the last end. */
    public double achievedPerSecond() {
        return servingNs <= 0 ? Double.NaN : completed() / (servingNs / 1e9);
    }

    /** Nearest-rank percentile (0 < p <= 100) of the latencies, ms; NaN without requests. */
    public double percentileMs(double p) {
        if (latenciesNs.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.max(1, Math.ceil(p / 100 * latenciesNs.length));
        return latenciesNs[Math.min(rank, latenciesNs.length) - 1] / 1e6;
    }
}
