package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecodeState;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.TokenChoice;

import java.nio.FloatBuffer;

/**
 * How closely a decoder (a float16 variant, another engine) follows the fp32 reference on one prompt: the share of
 * the first {@code tokens} greedy tokens it chooses as the reference does, both fed the reference's tokens (teacher
 * forcing, so that one early disagreement does not count again at every later token), and the largest absolute
 * difference of the logits of the prefill's last position, the ones that give the first token.
 *
 * @param agreement   % of the tokens where the decoder's greedy choice is the reference's
 * @param maxAbsLogit max |logit - reference logit| over the vocabulary at the prefill's last position
 */
public record DecoderFidelity(double agreement, double maxAbsLogit, int tokens) {

    /** @param prompt one sequence's prompt ids */
    public static DecoderFidelity measure(Decoder reference, Decoder decoder, long[] prompt, int tokens)
            throws BenchException {
        if (reference.layout().vocab() != decoder.layout().vocab()) {
            throw new BenchException("the decoder's vocabulary of " + decoder.layout().vocab() + " differs from its"
                    + " reference's " + reference.layout().vocab() + "; expected a variant of the same model");
        }
        Tap refTap = new Tap();
        Tap tap = new Tap();
        long[] ref = new long[1];
        long[] own = new long[1];
        int agree = 0;
        try (DecodeState r = reference.begin(1, refTap); DecodeState d = decoder.begin(1, tap)) {
            r.step(prompt, prompt.length, ref);
            d.step(prompt, prompt.length, own);
            double maxAbs = 0;
            for (int v = 0; v < refTap.first.length; v++) {
                maxAbs = Math.max(maxAbs, Math.abs(refTap.first[v] - tap.first[v]));
            }
            for (int t = 0; t < tokens; t++) {
                if (t > 0) {
                    long[] fed = {ref[0]};
                    r.step(fed, 1, ref);
                    d.step(fed, 1, own);
                }
                agree += ref[0] == own[0] ? 1 : 0;
            }
            return new DecoderFidelity(100.0 * agree / tokens, maxAbs, tokens);
        }
    }

    /** Greedy, keeping a copy of the first call's last-position logits (the prefill's). */
    private static final class Tap implements TokenChoice {
        float[] first;

        @Override
        public void choose(FloatBuffer logits, int batch, int n, int vocab, long[] next) {
            if (first == null) {
                first = new float[vocab];
                logits.get((n - 1) * vocab, first);
            }
            TokenChoice.GREEDY.choose(logits, batch, n, vocab, next);
        }
    }
}
