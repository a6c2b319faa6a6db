package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.plant.Plant;
import dev.inferbench.plant.TailPlant;

import java.nio.file.Path;

/**
 * The {@code stub} engine's decoder: a prompt step that takes the planted prefill time and each further step the
 * planted token time ({@link Plant}), so that TTFT and TPOT can be held against known values. It has the model file's
 * layout (read without its weights) and keeps the cache's size as the real one would, but computes nothing: each
 * sequence's next token is its last token plus one, within the vocabulary, whatever the padding (so a padded batch
 * gives each sequence what it gives alone, as the static batcher's check asks). Not a language model: a calibration.
 * The causes of slow calls planted for {@code --tail} ({@link TailPlant}) are planted in the cached steps, counted
 * from 1 per state: a token's call is the step, the prefill's time being TTFT's.
 */
final class StubDecoder implements Decoder {
    private final DecoderLayout layout;
    private final Plant plant;
    private final TailPlant tails;

    private StubDecoder(DecoderLayout layout, Plant plant, TailPlant tails) {
        this.layout = layout;
        this.plant = plant;
        this.tails = tails;
    }

    static StubDecoder open(Path model) throws BenchException {
        return new StubDecoder(DecoderLayout.of(model), Plant.ofProperty(), TailPlant.ofProperty());
    }

    @Override
    public DecoderLayout layout() {
        return layout;
    }

    /** The token choice is not asked: the stub's tokens are planted, not chosen from logits. */
    @Override
    public DecodeState begin(int batch, TokenChoice choice) {
        return new State(batch);
    }

    @Override
    public void close() {
    }

    private final class State implements DecodeState {
        private final int batch;
        private int cached;
        private long steps;

        State(int batch) {
            this.batch = batch;
        }

        @Override
        public void step(long[] tokens, int n, long[] next) throws BenchException {
            if (cached == 0) {
                Plant.spinWall(plant.prefillNanos());
            } else {
                long k = ++steps;
                tails.before(k);
                Plant.spinWall(plant.tokenNanos());
                tails.after(k);
            }
            for (int s = 0; s < batch; s++) {
                next[s] = (tokens[s * n + n - 1] + 1) % layout.vocab();
            }
            cached += n;
        }

        @Override
        public void pad(int[] leading) {
            Padding.of(leading, batch); // checked as the real decoders check it; the stub's tokens ignore padding
        }

        @Override
        public int cached() {
            return cached;
        }

        @Override
        public long cacheBytes() {
            return (long) batch * cached * layout.cacheBytesPerToken();
        }

        @Override
        public void reset() {
            cached = 0;
        }

        @Override
        public void close() {
        }
    }
}
