package dev.inferbench.generate;

import dev.inferbench.Numbers;
import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;

import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The generation parameters of a cell, typed and checked once (the matrix check before JMH starts, the benchmark's
 * setup again in its fork): prompt tokens per sequence (the prefill) and output tokens per sequence, decoded one at a
 * time with the cache, each chosen as {@code sampling} says; with a prompt file ({@code prompts}, else null), the file's
 * prompts take the place of seeded ids of promptLen tokens, and a sequence stops at its end-of-sequence token or at
 * outputLen. {@link #check} holds them against the decoder's layout.
 */
public record GenerationSpec(int promptLen, int outputLen, Sampling sampling, PromptFile prompts)
        implements FitsContext {
    public static final String PROMPT_LEN = "promptLen";
    public static final String OUTPUT_LEN = "outputLen";

    /** Greedy decoding. */
    public GenerationSpec(int promptLen, int outputLen) {
        this(promptLen, outputLen, Sampling.GREEDY);
    }

    /** Seeded prompts of promptLen ids, no stop before outputLen. */
    public GenerationSpec(int promptLen, int outputLen, Sampling sampling) {
        this(promptLen, outputLen, sampling, null);
    }

    /** Whether a cell's parameters make it a generation cell. */
    public static boolean isGenerationCell(Map<String, String> params) {
        return params.containsKey(PROMPT_LEN);
    }

    public static GenerationSpec of(Map<String, String> params) throws BenchException {
        int promptLen = whole(params, PROMPT_LEN, "128", "prompt tokens per sequence, e.g. -p promptLen=128,512");
        PromptFile prompts = PromptFile.of(params);
        if (prompts != null && promptLen != DEFAULT_PROMPT_LEN) {
            throw new BenchException("promptLen=" + promptLen + " and prompts=" + prompts + " do not go together: the"
                    + " file's prompts give the prompt lengths; expected one of them");
        }
        return new GenerationSpec(promptLen,
                whole(params, OUTPUT_LEN, "64", "tokens to generate per sequence, e.g. -p outputLen=64"),
                Sampling.parse(params.getOrDefault(Sampling.PARAM, "greedy")), prompts);
    }

    /** The default promptLen, the one a prompt file may stand beside (it is not used then). */
    public static final int DEFAULT_PROMPT_LEN = 128;

    /** The prompt file's prompts, encoded by the tokenizer beside {@code modelFile}; null without a prompt file. */
    public Prompts encode(Path modelFile, DecoderLayout layout) throws BenchException {
        return prompts == null ? null : Prompts.encode(prompts, modelFile, layout.vocab());
    }

    /**
     * The cell against the decoder it runs: the prompt and its output fit the declared context; a prompt file's
     * prompts are encoded by the model's tokenizer, each within the vocabulary and the context.
     */
    @Override
    public void check(DecoderLayout layout, String model, Path file) throws BenchException {
        if (prompts != null) {
            Prompts encoded = encode(file, layout);
            if (layout.context().isPresent()) {
                encoded.checkFits(outputLen, layout.context().getAsInt(), model);
            }
            return;
        }
        if (layout.context().isPresent() && promptLen + outputLen > layout.context().getAsInt()) {
            int context = layout.context().getAsInt();
            throw new BenchException("promptLen " + promptLen + " + outputLen " + outputLen + " = "
                    + (promptLen + outputLen) + " tokens is longer than the " + context + "-token context of model '"
                    + model + "'; expected promptLen + outputLen <= " + context);
        }
    }

    /**
     * Seeded prompts of {@code batch} sequences, token ids uniform in {@code [0, vocab)}: the same on every engine.
     * Random ids are not text, but a decoder's cost per step does not depend on which ids it reads.
     */
    public long[] prompt(int batch, int vocab, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] ids = new long[batch * promptLen];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = r.nextInt(vocab);
        }
        return ids;
    }

    private static int whole(Map<String, String> params, String name, String absent, String hint) throws BenchException {
        return Numbers.wholeAtLeast(params.getOrDefault(name, absent), 1, name, hint);
    }
}
