package dev.inferbench.generate;

import dev.inferbench.engine.TokenChoice;
import dev.inferbench.tensor.Half;
import org.junit.jupiter.api.Test;

import java.nio.FloatBuffer;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sampling against planted logits: the draws' frequencies are the planted probabilities, within the nucleus or top k. */
class SamplerTest {
    /** Probabilities 0.5, 0.3, 0.15, 0.05 at ids 3, 0, 2, 1 (as log-probabilities plus a shift softmax ignores). */
    private static final float[] PLANTED = {(float) Math.log(0.3) + 7, (float) Math.log(0.05) + 7,
            (float) Math.log(0.15) + 7, (float) Math.log(0.5) + 7};

    private static double[] frequencies(Sampling sampling, float[] logits, int draws, long seed) {
        Sampler s = sampling.sampler(seed);
        double[] f = new double[logits.length];
        long[] next = new long[1];
        for (int i = 0; i < draws; i++) {
            s.choose(FloatBuffer.wrap(logits), 1, 1, logits.length, next);
            f[(int) next[0]] += 1.0 / draws;
        }
        return f;
    }

    /**
     * A float16 model's greedy choice reads the bits as they are, in one pass: the same tokens as the argmax of the
     * converted row, on random rows and on rows made of ties, negative values, signed zeros and infinities (the first
     * on ties, -0 and +0 equal); a sampler does not read float16.
     */
    @Test
    void greedyReadsFloat16BitsAsTheFloat32ArgmaxDoes() throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        Sampler greedy = Sampling.parse("greedy").sampler(1);
        assertThat(greedy.choosesHalf()).isTrue();
        assertThat(Sampling.parse("top-k=5").sampler(1).choosesHalf()).isFalse();
        assertThat(TokenChoice.GREEDY.choosesHalf()).isFalse();
        short[] special = {Half.fromFloat(-0f), Half.fromFloat(0f), Half.fromFloat(Float.NEGATIVE_INFINITY),
            Half.fromFloat(-3f), Half.fromFloat(2.5f), Half.fromFloat(2.5f), Half.fromFloat(Float.POSITIVE_INFINITY)};
        for (int trial = 0; trial < 300; trial++) {
            int vocab = 1 + r.nextInt(70);
            short[] bits = new short[2 * vocab];
            for (int i = 0; i < bits.length; i++) {
                bits[i] = trial % 2 == 0 ? Half.fromFloat((float) (r.nextGaussian() * 4))
                        : special[r.nextInt(special.length - (trial % 4 == 1 ? 1 : 0))];
            }
            float[] floats = new float[bits.length];
            Half.toFloats(bits, floats, 0, bits.length);
            long[] expected = new long[2];
            TokenChoice.GREEDY.choose(FloatBuffer.wrap(floats), 2, 1, vocab, expected);
            long[] read = new long[2];
            greedy.chooseHalf(bits, 2, vocab, read);
            assertThat(read).as("trial %d, vocab %d", trial, vocab).isEqualTo(expected);
        }
    }

    @Test
    void topKOfOneIsGreedyOnRandomLogits() throws Exception {
        SplittableRandom r = new SplittableRandom(3);
        Sampler topOne = Sampling.parse("top-k=1&temperature=0.5").sampler(9);
        for (int trial = 0; trial < 200; trial++) {
            float[] logits = new float[2 * 3 * 50]; // batch 2, 3 positions: the last position of each sequence counts
            for (int i = 0; i < logits.length; i++) {
                logits[i] = (float) r.nextGaussian();
            }
            long[] greedy = new long[2];
            long[] sampled = new long[2];
            TokenChoice.GREEDY.choose(FloatBuffer.wrap(logits), 2, 3, 50, greedy);
            topOne.choose(FloatBuffer.wrap(logits), 2, 3, 50, sampled);
            assertThat(sampled).isEqualTo(greedy);
        }
    }

    @Test
    void theSameSeedDrawsTheSameTokensAndRestartRepeatsThem() throws Exception {
        Sampling topP = Sampling.parse("top-p=1");
        Sampler a = topP.sampler(5);
        Sampler b = topP.sampler(5);
        Sampler c = topP.sampler(6);
        long[] x = new long[1];
        long[] y = new long[1];
        long[] z = new long[1];
        StringBuilder first = new StringBuilder();
        int differ = 0;
        for (int i = 0; i < 100; i++) {
            a.choose(FloatBuffer.wrap(PLANTED), 1, 1, 4, x);
            b.choose(FloatBuffer.wrap(PLANTED), 1, 1, 4, y);
            c.choose(FloatBuffer.wrap(PLANTED), 1, 1, 4, z);
            assertThat(x).isEqualTo(y);
            differ += x[0] != z[0] ? 1 : 0;
            first.append(x[0]);
        }
        assertThat(differ).isGreaterThan(10); // another seed, other draws: the seed is used
        a.restart();
        StringBuilder again = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            a.choose(FloatBuffer.wrap(PLANTED), 1, 1, 4, x);
            again.append(x[0]);
        }
        assertThat(again.toString()).isEqualTo(first.toString());
    }

    @Test
    void topPDrawsOnlyFromTheNucleusInItsProportions() throws Exception {
        // 0.5 + 0.3 reach 0.75: the nucleus is ids 3 and 0, drawn 0.625 : 0.375
        double[] f = frequencies(Sampling.parse("top-p=0.75"), PLANTED, 20_000, 1);
        assertThat(f[1]).isZero();
        assertThat(f[2]).isZero();
        assertThat(f[3]).isCloseTo(0.625, org.assertj.core.data.Offset.offset(0.02));
        assertThat(f[0]).isCloseTo(0.375, org.assertj.core.data.Offset.offset(0.02));
    }

    @Test
    void topKAndTemperatureDrawThePlantedProbabilities() throws Exception {
        double[] all = frequencies(Sampling.parse("top-k=4"), PLANTED, 40_000, 2);
        assertThat(all).containsExactly(new double[]{0.3, 0.05, 0.15, 0.5}, org.assertj.core.data.Offset.offset(0.015));
        // temperature 2 takes square roots of the probabilities before renormalising
        double[] warm = frequencies(Sampling.parse("top-k=2&temperature=2"), PLANTED, 40_000, 3);
        double share = Math.sqrt(0.5) / (Math.sqrt(0.5) + Math.sqrt(0.3));
        assertThat(warm[3]).isCloseTo(share, org.assertj.core.data.Offset.offset(0.015));
        assertThat(warm[1] + warm[2]).isZero();
    }

    @Test
    void theChoiceIsTimedPerRequest() throws Exception {
        Sampler s = Sampling.parse("top-p=0.9").sampler(1);
        long[] next = new long[1];
        s.choose(FloatBuffer.wrap(new float[50_000]), 1, 1, 50_000, next);
        assertThat(s.nanos()).isPositive();
        s.restart();
        assertThat(s.nanos()).isZero();
    }

    @Test
    void parsesAndRefusesInOneLine() throws Exception {
        assertThat(Sampling.parse("greedy").greedy()).isTrue();
        assertThat(Sampling.parse("top-k=40").id()).isEqualTo("top-k=40");
        assertThat(Sampling.parse("top-p=0.9&temperature=0.7")).isEqualTo(new Sampling(0, 0.9, 0.7));
        assertThat(Sampling.parse("top-p=0.9&temperature=0.7").id()).isEqualTo("top-p=0.9&temperature=0.7");
        assertThatThrownBy(() -> Sampling.parse("nucleus")).hasMessage("sampling 'nucleus' cannot be read; expected"
                + " greedy, top-k=K or top-p=P, optionally with &temperature=T, e.g. -p"
                + " 'sampling=greedy,top-k=40,top-p=0.9&temperature=0.7'");
        assertThatThrownBy(() -> Sampling.parse("top-p=1.5")).hasMessageStartingWith("sampling 'top-p=1.5' is out of"
                + " range: K is a whole number >= 1, 0 < P <= 1 and the temperature above 0;");
        assertThatThrownBy(() -> Sampling.parse("top-k=0")).hasMessageContaining("is out of range");
        assertThatThrownBy(() -> Sampling.parse("top-k=5&temperature=0")).hasMessageContaining("is out of range");
    }
}
