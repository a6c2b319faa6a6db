package dev.inferbench.serve;

import dev.inferbench.Numbers;
import dev.inferbench.BenchException;

import java.util.Locale;
import java.util.Map;

/**
 * The open-loop parameters of a serving cell, typed and checked once (the matrix check makes one per cell before JMH
 * starts, the benchmark's setup again in its fork):
 *
 * @param rate     requests per second offered; NaN for {@code max}, the search for the highest rate meeting the SLO
 * @param arrivals how arrivals are spaced
 * @param slo      the latency objective, null for {@code none}
 * @param requests requests per measured step
 * @param idleMs   when above 0, no arrival schedule: each caller pauses this long before each call, outside the timed
 *                 call ({@link IdleLoop}), and the rate is not used
 * @param batchWaitMs NaN ({@code off}): each request is served in a call of its own, at the cell's batch size. A
 *                 number: dynamic batching, each request is one sample and a caller serves up to the cell's batch
 *                 size of them in one call, taking those already waiting and those that arrive within this many ms
 *                 of the first ({@link OpenLoop.Batching})
 * @param stepSeconds the shortest a measured step may be: at a rate whose {@code requests} arrive sooner, the step
 *                 takes more of them. A step of a quarter second is shorter than a GC cycle or one of the VM's slow
 *                 stretches, and two searches made of such steps disagreed by 2.5x
 * @param users    when above 0, closed loop: this many users, each sending its next request when its last one ended
 *                 ({@link OpenLoop#closed}); a step is then its warm-up and {@code requests} measured requests, and
 *                 neither the rate nor {@code stepSeconds} is used
 */
public record ServingSpec(double rate, Arrivals arrivals, Slo slo, int requests, double idleMs, double batchWaitMs,
                          double stepSeconds, int users) {
    public static final String RATE = "rate";
    public static final String ARRIVALS = "arrivals";
    public static final String SLO = "slo";
    public static final String REQUESTS = "requests";
    public static final String MAX_RATE = "max";
    public static final String IDLE_MS = "idleMs";
    public static final String BATCH_WAIT_MS = "batchWaitMs";
    public static final String STEP_SECONDS = "stepSeconds";
    public static final String USERS = "users";
    /** The default of {@value #STEP_SECONDS}. */
    public static final double DEFAULT_STEP_SECONDS = 10;
    /** {@value}: no dynamic batching, the default of {@link #BATCH_WAIT_MS}. */
    public static final String OFF = "off";
    /**
     * The highest rate a rate search tries: about what one scheduler thread issues on time on a small VM (each
     * arrival costs a wake-up and a queue hand-off, some µs). A search whose top passed says it found a ceiling.
     * Fixed rates above it are run: whether the generator kept up is each step's validity ({@link Validity}).
     */
    public static final double SCHEDULABLE = 20_000;
    /** A rate no scheduler thread can issue: arrivals 1 µs apart, below the cost of one queue hand-off. */
    static final double UNSCHEDULABLE = 1_000_000;
    /** Each step's warm-up: at least this share of its measured requests, and at least this long, before them. */
    static final double WARMUP_SHARE = 0.1;
    static final double WARMUP_SECONDS = 0.2;
    /**
     * What a serving fork spends before its first step, s: 2 s of calls back to back (the capacity) and, in
     * ServingBenchmark, 2 s through the open loop at half of it; counted in the plan's estimate.
     */
    static final double FORK_WARMUP_SECONDS = 4;
    /** Requests per step when neither {@code requests} nor an SLO says: enough for a p99. */
    static final int DEFAULT_REQUESTS = 1000;
    /** Steps a rate search typically runs: halving down, bisecting up to its resolution, the knee again. */
    static final int TYPICAL_SEARCH_STEPS = 9;

    /** Whether a cell's parameters make it a serving cell. */
    public static boolean isServingCell(Map<String, String> params) {
        return params.containsKey(RATE);
    }

    /** A cell of single-call requests (ServingBenchmark): its SLO bounds their latency. */
    public static ServingSpec of(Map<String, String> params) throws BenchException {
        return of(params, false);
    }

    /**
     * @param streamed whether the cell's requests are streamed responses whose tokens are timed (generation under
     *                 load): only then may the SLO bound TTFT, TPOT or ITL
     */
    public static ServingSpec of(Map<String, String> params, boolean streamed) throws BenchException {
        String rateText = params.getOrDefault(RATE, "10").strip().toLowerCase(Locale.ROOT);
        double rate = Double.NaN;
        if (!rateText.equals(MAX_RATE)) {
            rate = Numbers.orNaN(rateText.endsWith("/s") ? rateText.substring(0, rateText.length() - 2) : rateText);
            if (!(rate > 0)) {
                throw new BenchException("rate '" + params.get(RATE) + "' is not a rate above 0; expected requests per"
                        + " second, e.g. -p rate=10,20,40, or -p rate=max with an SLO");
            }
            if (rate > UNSCHEDULABLE) {
                throw new BenchException("rate " + params.get(RATE) + "/s cannot be scheduled: its arrivals would be"
                        + " under 1 µs apart; expected a rate up to " + (int) UNSCHEDULABLE + " (a step whose arrivals"
                        + " run late is marked INVALID)");
            }
        }
        Arrivals arrivals = Arrivals.parse(params.getOrDefault(ARRIVALS, Arrivals.POISSON.id()));
        String sloText = params.getOrDefault(SLO, Slo.NONE);
        Slo slo = sloText.strip().equals(Slo.NONE) ? null : Slo.parse(sloText);
        if (slo != null && slo.needsTokens() && !streamed) {
            throw new BenchException("SLO '" + sloText + "' bounds token times (ttft, tpot, itl), and this cell's requests"
                    + " are single calls without tokens; expected a latency SLO such as p99<50ms here, or a"
                    + " GenerationLoadBenchmark cell for ttft/tpot/itl");
        }
        if (Double.isNaN(rate) && slo == null) {
            throw new BenchException("rate=max searches for the highest rate that meets an SLO, and the cell has none;"
                    + " expected e.g. -p slo='p99<50ms'");
        }
        String requestsText = params.getOrDefault(REQUESTS, "auto").strip();
        int requests;
        if (requestsText.equals("auto")) {
            requests = slo == null ? DEFAULT_REQUESTS : Math.max(slo.requestsNeeded(), 20);
        } else {
            requests = Numbers.wholeAtLeast(requestsText, 1, REQUESTS, "requests per measured step, or auto ("
                    + DEFAULT_REQUESTS + ", or what the SLO's percentile needs)");
        }
        if (slo != null && requests < slo.requestsNeeded()) {
            throw new BenchException("requests=" + requests + " is too few for the SLO " + slo + ": its percentile needs "
                    + slo.requestsNeeded() + " requests per step to stand on more than the slowest few; expected -p"
                    + " requests=" + slo.requestsNeeded() + " or more");
        }
        String idleText = params.getOrDefault(IDLE_MS, "0").strip();
        double idle = Numbers.orNaN(idleText);
        if (!(idle >= 0) || Double.isInfinite(idle)) {
            throw new BenchException("idleMs '" + idleText + "' is not a pause of 0 ms or more; expected e.g."
                    + " -p idleMs=0,100,1000 (each call after that long idle)");
        }
        if (idle > 0 && Double.isNaN(rate)) {
            throw new BenchException("rate=max and idleMs=" + idleText + " do not go together: calls after idle have"
                    + " no arrival rate to search; expected idleMs=0 with rate=max");
        }
        double batchWait = batchWaitMs(params);
        if (idle > 0 && !Double.isNaN(batchWait)) {
            throw new BenchException("idleMs=" + idleText + " and batchWaitMs=" + params.get(BATCH_WAIT_MS) + " do not"
                    + " go together: calls after idle have no queue to gather requests from; expected batchWaitMs=off"
                    + " with idleMs");
        }
        int users = users(params);
        if (users > 0 && Double.isNaN(rate)) {
            throw new BenchException("rate=max and users=" + users + " do not go together: closed-loop users send"
                    + " each request when their last one ends, so there is no arrival rate to search; expected users=0"
                    + " for a rate search, or users without one (e.g. -p users=1,4,16)");
        }
        return new ServingSpec(rate, arrivals, slo, requests, idle, batchWait, stepSeconds(params), users);
    }

    /** The cell's closed-loop users, 0 (the open loop) when the benchmark has no such parameter. */
    static int users(Map<String, String> params) throws BenchException {
        return Numbers.wholeAtLeast(params.getOrDefault(USERS, "0").strip(), 0, USERS, "closed-loop users, e.g. -p"
                + " users=1,4,16 (each sends its next request when its last one ends), or 0 for the open loop at the rate");
    }

    /** Whether closed-loop users send the requests ({@link #users} above 0) instead of the arrival schedule. */
    public boolean closed() {
        return users > 0;
    }

    /** The cell's shortest measured step, in seconds (the default when the benchmark has no such parameter). */
    static double stepSeconds(Map<String, String> params) throws BenchException {
        String text = params.getOrDefault(STEP_SECONDS, Double.toString(DEFAULT_STEP_SECONDS)).strip();
        double seconds = Numbers.orNaN(text.endsWith("s") ? text.substring(0, text.length() - 1) : text);
        if (!(seconds >= 0) || seconds > 3600) {
            throw new BenchException("stepSeconds '" + text + "' is not a time of 0 to 3600 s; expected e.g."
                    + " -p stepSeconds=10 (each measured step lasts at least that long; 0: just the requests)");
        }
        return seconds;
    }

    /**
     * About how long a fork of this serving cell measures, in s, for the plan's ETA: its warm-up
     * ({@value #FORK_WARMUP_SECONDS} s) and one step at its rate (with the step's warm-up), or for a search the steps a typical search takes ({@value #TYPICAL_SEARCH_STEPS}); NaN when the
     * parameters are not a serving cell's or a search's rates cannot be known (no SLO).
     */
    public static double expectedSeconds(Map<String, String> params) {
        return seconds(params, TYPICAL_SEARCH_STEPS);
    }

    /**
     * Whether closed-loop users send this serving cell's requests: then its pace is the service's, and how long a fork
     * takes is not known before one has run.
     */
    public static boolean closedLoop(Map<String, String> params) {
        if (!isServingCell(params)) {
            return false;
        }
        try {
            return of(params, params.containsKey("outputLen")).closed();
        } catch (BenchException e) {
            return false; // refused before any fork
        }
    }

    /** The longest a fork of this serving cell may measure, in s: a search that tries every rate it may, repeated. */
    public static double longestSeconds(Map<String, String> params) {
        return seconds(params, RateSearch.MAX_TRIES * RateSearch.MAX_REPEATS);
    }

    private static double seconds(Map<String, String> params, int searchSteps) {
        if (!isServingCell(params)) {
            return Double.NaN;
        }
        try {
            ServingSpec spec = of(params, params.containsKey("outputLen"));
            if (spec.closed()) {
                return Double.NaN; // its pace is the service's, unknown before it runs
            }
            if (spec.idleMs() > 0) {
                return spec.requests() * spec.idleMs() / 1e3;
            }
            double perStep = (1 + WARMUP_SHARE) * (spec.searchesRate() ? spec.stepSeconds
                    : spec.requestsAt(spec.rate) / spec.rate);
            return FORK_WARMUP_SECONDS + (spec.searchesRate() ? searchSteps * Math.max(perStep, 1) : perStep);
        } catch (BenchException e) {
            return Double.NaN; // refused before any fork
        }
    }

    /**
     * Requests in a measured step at {@code perSecond}: {@code requests}, or more to last {@code stepSeconds}; in a
     * closed loop, {@code requests}.
     */
    public int requestsAt(double perSecond) {
        if (closed()) {
            return requests;
        }
        double lasting = Math.ceil(perSecond * stepSeconds);
        return (int) Math.max(requests, Math.min(lasting, Integer.MAX_VALUE / 2));
    }

    /** The cell's dynamic-batching wait in ms, NaN when it is off (the default). */
    public static double batchWaitMs(Map<String, String> params) throws BenchException {
        String text = params.getOrDefault(BATCH_WAIT_MS, OFF).strip();
        if (!batches(text)) {
            return Double.NaN;
        }
        double wait = Numbers.orNaN(text);
        if (!(wait >= 0) || wait > 60_000) {
            throw new BenchException("batchWaitMs '" + text + "' is not off or a wait of 0 to 60000 ms; expected e.g."
                    + " -p batchWaitMs=off,2,10 (a caller gathers up to batchSize requests, waiting at most that long"
                    + " for more after the first)");
        }
        return wait;
    }

    /** Whether a {@value #BATCH_WAIT_MS} value turns dynamic batching on (anything but {@value #OFF}). */
    public static boolean batches(String batchWaitMs) {
        return !batchWaitMs.strip().equalsIgnoreCase(OFF);
    }

    /** Whether requests are gathered into calls (dynamic batching): each request is then one sample. */
    public boolean batches() {
        return !Double.isNaN(batchWaitMs);
    }

    /** How the callers gather requests into calls for a cell of this batch size. */
    public OpenLoop.Batching batching(int batchSize) {
        return batches() ? new OpenLoop.Batching(batchSize, Math.round(batchWaitMs * 1e6)) : OpenLoop.Batching.NONE;
    }

    /**
     * Requests issued at the step's rate before its measured ones, to bring the callers (fresh threads) and the queue
     * to a steady state: a tenth of the measured requests ({@link #requestsAt}), or 0.2 s of arrivals if more, at most as many as measured.
     * In a closed loop, a tenth of them or one per user if more (every user's first request starts at once, on an
     * empty queue), at most as many as measured.
     */
    public int warmupRequests(double perSecond) {
        int measured = requestsAt(perSecond);
        if (closed()) {
            return (int) Math.min(measured, Math.max(users, Math.ceil(measured * WARMUP_SHARE)));
        }
        double wanted = Math.max(measured * WARMUP_SHARE, perSecond * WARMUP_SECONDS);
        return (int) Math.min(measured, Math.ceil(wanted));
    }

    public boolean searchesRate() {
        return Double.isNaN(rate);
    }
}
