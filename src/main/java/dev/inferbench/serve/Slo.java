package dev.inferbench.serve;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.stats.PercentileBound;
import dev.inferbench.stats.Percentiles;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A service-level objective: one or more terms, each a percentile of one per-request figure that must stay at or
 * below a bound. {@code p99<50ms} bounds a request's latency (from its intended start, queueing included); for
 * streamed responses (generation under load) a term may name {@code ttft}, {@code tpot} or {@code itl}
 * ({@link TokenTimes}) or {@code e2e} (the latency), and several terms join with {@code &}:
 * {@code ttft.p99<500ms&tpot.p99<50ms}. Each term is written {@code [metric.]pP<Nunit} with unit us, ms or s;
 * {@code <=} reads the same. (A comma would make two cells: JMH splits {@code -p} values at commas.)
 *
 * @param terms at least one
 */
public record Slo(List<Term> terms) {
    private static final Pattern TERM = Pattern.compile(
            "(?:([a-z0-9_]+)\\.)?p(\\d+(?:\\.\\d+)?)\\s*<=?\\s*(\\d+(?:\\.\\d+)?)\\s*(us|µs|ms|s)");
    private static final String EXAMPLE = "p99<50ms, p90<200us or p99.9<1s";

    /** {@code none}: no objective (a rate sweep that only measures). */
    public static final String NONE = "none";

    /** What a term bounds. */
    public enum Metric {
        /** A request's latency from its intended start to its end (for a streamed response: its last token). */
        LATENCY("e2e"),
        /** Intended start to first token. */
        TTFT("ttft"),
        /** (end-to-end - TTFT) / (tokens - 1), per request. */
        TPOT("tpot"),
        /** Each gap between consecutive tokens, pooled over the step's tokens. */
        ITL("itl");

        private final String id;

        Metric(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** Whether the figure needs the times of a response's tokens (only streamed responses have them). */
        public boolean needsTokens() {
            return this != LATENCY;
        }
    }

    /** One term: the {@code percentile} of {@code metric} at or below {@code boundMs}. */
    public record Term(Metric metric, double percentile, double boundMs) {
        public long boundNs() {
            return Math.round(boundMs * 1e6);
        }

        /** p99<50ms, ttft.p99<500ms: as a user writes it. */
        @Override
        public String toString() {
            return (metric == Metric.LATENCY ? "" : metric.id() + ".") + "p" + Numbers.plain(percentile) + "<" + Numbers.plain(boundMs)
                    + "ms";
        }
    }

    public Slo {
        if (terms.isEmpty()) {
            throw new IllegalArgumentException("an SLO needs a term");
        }
        terms = List.copyOf(terms);
    }

    /** One latency term: {@code p<percentile> < boundMs}. */
    public Slo(double percentile, double boundMs) {
        this(List.of(new Term(Metric.LATENCY, percentile, boundMs)));
    }

    public static Slo parse(String text) throws BenchException {
        List<Term> terms = new ArrayList<>();
        for (String part : text.strip().toLowerCase(Locale.ROOT).split("[&;]", -1)) {
            terms.add(term(part.strip(), text));
        }
        return new Slo(terms);
    }

    private static Term term(String part, String text) throws BenchException {
        Matcher m = TERM.matcher(part);
        if (!m.matches()) {
            throw new BenchException("SLO '" + text + "' cannot be read" + (part.equals(text.strip().toLowerCase(Locale.ROOT)) ? "" : " at '" + part
                    + "'") + "; expected a percentile and a bound, e.g. " + EXAMPLE);
        }
        Metric metric = Metric.LATENCY;
        if (m.group(1) != null) {
            metric = Arrays.stream(Metric.values()).filter(x -> x.id().equals(m.group(1))).findFirst()
                    .orElseThrow(() -> new BenchException("SLO term '" + part + "' names an unknown metric '" + m.group(1)
                            + "'; expected one of: ttft, tpot, itl, e2e (or none: a request's latency, e.g. p99<50ms)"));
        }
        double p = Double.parseDouble(m.group(2));
        double bound = Double.parseDouble(m.group(3));
        if (!(p > 0 && p < 100) || bound <= 0) {
            throw new BenchException("SLO '" + text + "' needs a percentile between 0 and 100 (exclusive) and a bound"
                    + " above 0; expected e.g. p99<50ms");
        }
        double ms = switch (m.group(4)) {
            case "us", "µs" -> bound / 1000;
            case "s" -> bound * 1000;
            default -> bound;
        };
        return new Term(metric, p, ms);
    }

    /** Whether a term needs the times of each response's tokens (TTFT, TPOT, ITL). */
    public boolean needsTokens() {
        return terms.stream().anyMatch(t -> t.metric().needsTokens());
    }

    /**
     * Requests a step needs for each per-request term's percentile to stand on more than the slowest few
     * ({@link Percentiles#callsFor}); an ITL term counts tokens' gaps, which a step has many more of.
     */
    public int requestsNeeded() {
        return (int) terms.stream().filter(t -> t.metric() != Metric.ITL)
                .mapToLong(t -> Percentiles.callsFor(t.percentile())).max().orElse(0);
    }

    /** A step's verdict against this SLO: {@link Verdict}. */
    public enum Verdict { MET, MISSED, UNSURE, INVALID }

    /**
     * INVALID when the step measured the generator or an overloaded queue ({@link Validity}); MISSED when it dropped a
     * request; else what the count of values over each term's bound says: MISSED when one term is shown missed, MET
     * when every term is shown met, else UNSURE (the sample percentile alone is a coin flip near the bound). With k
     * terms each is judged at a confidence of 1 - (1 - {@link PercentileBound#CONFIDENCE}) / k (Bonferroni), so that
     * "every term met" keeps the one confidence.
     */
    public Verdict judge(StepResult step) {
        if (!Validity.of(step, this).valid()) {
            return Verdict.INVALID;
        }
        if (step.dropped() > 0) {
            return Verdict.MISSED;
        }
        double confidence = 1 - (1 - PercentileBound.CONFIDENCE) / terms.size();
        boolean unsure = false;
        for (Term t : terms) {
            long[] values = step.sortedNs(t.metric());
            switch (PercentileBound.judge(values.length, StepResult.over(values, t.boundNs()), t.percentile(),
                    confidence)) {
                case MISSED -> {
                    return Verdict.MISSED;
                }
                case UNSURE -> unsure = true;
                default -> {
                }
            }
        }
        return unsure ? Verdict.UNSURE : Verdict.MET;
    }

    /** Whether the step is shown to meet the SLO: valid, nothing dropped, every term met with confidence. */
    public boolean metBy(StepResult step) {
        return judge(step) == Verdict.MET;
    }

    /**
     * Goodput: requests per second that met every term, each request against each bound on its own (its latency, its
     * TTFT, its TPOT; for an ITL term, the term's percentile of its own gaps, nearest rank). A TPOT or ITL term holds
     * for a one-token response (it has no further tokens). A dropped request meets nothing.
     */
    public double goodputPerSecond(StepResult step) {
        if (!step.streamed()) {
            long bound = terms.stream().mapToLong(Term::boundNs).min().orElseThrow(); // latency terms only
            return step.goodputPerSecond(bound);
        }
        long good = step.tokens().stream().filter(t -> t != null && terms.stream().allMatch(term -> meets(t, term)))
                .count();
        return step.goodPerSecond(good);
    }

    static boolean meets(TokenTimes t, Term term) {
        return switch (term.metric()) {
            case LATENCY -> t.endToEndNs() <= term.boundNs();
            case TTFT -> t.ttftNs() <= term.boundNs();
            case TPOT -> t.tokens() < 2 || t.tpotNs() <= term.boundNs();
            case ITL -> {
                long[] gaps = t.gapsNs();
                if (gaps.length == 0) {
                    yield true;
                }
                Arrays.sort(gaps);
                yield Percentiles.atRank(gaps, term.percentile()) <= term.boundNs();
            }
        };
    }

    /** p99<50ms, ttft.p99<500ms&tpot.p99<50ms: as a user writes it. */
    @Override
    public String toString() {
        return String.join("&", terms.stream().map(Term::toString).toList());
    }
}
