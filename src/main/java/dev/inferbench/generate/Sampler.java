package dev.inferbench.generate;

import dev.inferbench.engine.TokenChoice;

import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The token choice of a {@link Sampling}, seeded, and timed: the time spent choosing is kept per request so that its
 * cost per token can be reported beside the forward pass's. Greedy is the argmax; top-k and top-p sort the
 * vocabulary by logit (ties: the lower id first), take the K most likely or the nucleus (the most likely tokens up to
 * the first whose cumulative probability reaches P, at the temperature), and draw one by its renormalised
 * probability. One sampler per caller (it keeps its random state and its buffers); {@link #restart} at each request.
 */
public final class Sampler implements TokenChoice {
    private final Sampling sampling;
    private final long seed;
    private SplittableRandom random;
    private long[] order = new long[0];
    private double[] weights = new double[0];
    private long nanos;

    Sampler(Sampling sampling, long seed) {
        this.sampling = sampling;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    /** A request starts: the draws start again from the seed, the time from 0. */
    public void restart() {
        random = new SplittableRandom(seed);
        nanos = 0;
    }

    /** Nanoseconds spent choosing since {@link #restart}. */
    public long nanos() {
        return nanos;
    }

    @Override
    public void choose(FloatBuffer logits, int batch, int n, int vocab, long[] next) {
        long start = System.nanoTime();
        if (sampling.greedy()) {
            TokenChoice.GREEDY.choose(logits, batch, n, vocab, next);
        } else {
            for (int s = 0; s < batch; s++) {
                next[s] = draw(logits, (s * n + n - 1) * vocab, vocab);
            }
        }
        nanos += System.nanoTime() - start;
    }

    /** Greedy reads a float16 model's logits as they are: the argmax in one pass, timed as every choice is. */
    @Override
    public boolean choosesHalf() {
        return sampling.greedy();
    }

    @Override
    public void chooseHalf(short[] last, int batch, int vocab, long[] next) {
        if (!sampling.greedy()) {
            throw new UnsupportedOperationException("sampling reads float32 logits");
        }
        long start = System.nanoTime();
        TokenChoice.greedyHalf(last, batch, vocab, next);
        nanos += System.nanoTime() - start;
    }

    private long draw(FloatBuffer logits, int base, int vocab) {
        if (order.length < vocab) {
            order = new long[vocab];
            weights = new double[vocab];
        }
        for (int v = 0; v < vocab; v++) {
            order[v] = ((long) descending(logits.get(base + v)) << 32) | v;
        }
        Arrays.sort(order, 0, vocab);
        double top = logits.get(base + id(order[0]));
        int keep = sampling.topK() > 0 ? Math.min(sampling.topK(), vocab) : vocab;
        double total = 0;
        for (int i = 0; i < keep; i++) {
            weights[i] = Math.exp((logits.get(base + id(order[i])) - top) / sampling.temperature());
            total += weights[i];
        }
        if (sampling.topP() > 0) {
            double mass = 0;
            int nucleus = 0;
            while (nucleus < keep && mass < sampling.topP() * total) {
                mass += weights[nucleus++];
            }
            keep = Math.max(1, nucleus);
            total = mass;
        }
        double r = random.nextDouble() * total;
        for (int i = 0; i < keep - 1; i++) {
            r -= weights[i];
            if (r < 0) {
                return id(order[i]);
            }
        }
        return id(order[keep - 1]);
    }

    private static int id(long packed) {
        return (int) (packed & 0xFFFFFFFFL);
    }

    /** An int that sorts ascending as the float sorts descending (NaN last). */
    private static int descending(float f) {
        int bits = Float.floatToIntBits(f);
        int ascending = bits ^ ((bits >> 31) & 0x7FFFFFFF);
        return Float.isNaN(f) ? Integer.MAX_VALUE : -ascending - 1;
    }
}
