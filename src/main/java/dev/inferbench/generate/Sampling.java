package dev.inferbench.generate;

import dev.inferbench.BenchException;

import java.util.Locale;

/**
 * How each next token is chosen, as a cell's {@code sampling} parameter: {@code greedy} (the argmax), {@code top-k=K}
 * (a draw from the K most likely tokens) or {@code top-p=P} (a draw from the smallest set of most likely tokens whose
 * probability reaches P, the nucleus), each draw at {@code temperature=T} (joined with {@code &}: JMH splits
 * {@code -p} values at commas). Draws are seeded: the same seed gives the same tokens.
 *
 * @param topK        0 unless top-k
 * @param topP        0 unless top-p
 * @param temperature the logits are divided by it before the softmax; 1 leaves them as they are
 */
public record Sampling(int topK, double topP, double temperature) {
    public static final String PARAM = "sampling";
    public static final Sampling GREEDY = new Sampling(0, 0, 1);
    private static final String EXPECTED = "expected greedy, top-k=K or top-p=P, optionally with &temperature=T,"
            + " e.g. -p 'sampling=greedy,top-k=40,top-p=0.9&temperature=0.7'";

    public boolean greedy() {
        return topK == 0 && topP == 0;
    }

    /** The parameter's value, as {@link #parse} reads it. */
    public String id() {
        if (greedy()) {
            return "greedy";
        }
        String base = topK > 0 ? "top-k=" + topK : "top-p=" + trim(topP);
        return temperature == 1 ? base : base + "&temperature=" + trim(temperature);
    }

    public static Sampling parse(String value) throws BenchException {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("greedy")) {
            return GREEDY;
        }
        String[] parts = v.split("&", -1);
        int k = 0;
        double p = 0;
        double t = 1;
        try {
            if (parts.length > 2) {
                throw new NumberFormatException();
            }
            if (parts[0].startsWith("top-k=")) {
                k = Integer.parseInt(parts[0].substring(6));
            } else if (parts[0].startsWith("top-p=")) {
                p = Double.parseDouble(parts[0].substring(6));
            } else {
                throw new NumberFormatException();
            }
            if (parts.length == 2) {
                if (!parts[1].startsWith("temperature=")) {
                    throw new NumberFormatException();
                }
                t = Double.parseDouble(parts[1].substring(12));
            }
        } catch (NumberFormatException e) {
            throw new BenchException(PARAM + " '" + value + "' cannot be read; " + EXPECTED, e);
        }
        if (parts[0].startsWith("top-k=") && k < 1 || parts[0].startsWith("top-p=") && !(p > 0 && p <= 1)
                || !(t > 0) || Double.isInfinite(t)) {
            throw new BenchException(PARAM + " '" + value + "' is out of range: K is a whole number >= 1, 0 < P <= 1"
                    + " and the temperature above 0; " + EXPECTED);
        }
        return new Sampling(k, p, t);
    }

    /** A fresh sampler for one caller, drawing from {@code seed}. */
    public Sampler sampler(long seed) {
        return new Sampler(this, seed);
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
