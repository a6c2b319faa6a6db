package dev.inferbench.pipeline;

import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What a text service does before a BERT-style encoder: lower-case and split the request into words, turn each word
 * into a token id, add the [CLS] and [SEP] ids, pad or cut to the sequence length and build the attention mask.
 * Word ids come from a hash of the word into the vocabulary, not a trained WordPiece table (the zoo's weights are
 * random, and the cost per character is what matters here): the same work shape a tokenizer has, without a vocabulary
 * file to download. A vocabulary too small for BERT's reserved ids (a model that records none: 100 ids) gets word
 * ids over all of it.
 */
public final class TextPipeline {
    /** BERT's [CLS], [SEP] and [PAD] ids; ids below {@value #FIRST_WORD} are reserved for such tokens. */
    static final long CLS = 101;
    static final long SEP = 102;
    static final long PAD = 0;
    static final int FIRST_WORD = 1000;
    private static final String[] WORDS = {"the", "model", "runs", "inference", "on", "a", "batch", "of", "requests",
            "latency", "matters", "when", "users", "wait", "for", "answers", "java", "service", "scales", "well"};

    private final int seqLen;
    private final long vocab;
    private final long firstWord;

    /** @param vocab the model's vocabulary size; word ids land in [{@value #FIRST_WORD}, vocab) when it is large */
    public TextPipeline(int seqLen, long vocab) {
        if (seqLen < 2 || vocab < 2) {
            throw new IllegalArgumentException("seqLen " + seqLen + ", vocabulary " + vocab + "; expected at least 2");
        }
        this.seqLen = seqLen;
        this.vocab = vocab;
        this.firstWord = vocab > 2L * FIRST_WORD ? FIRST_WORD : 0;
    }

    /** A seeded request of about {@code words} words of plain English, punctuation included. */
    public static String sampleText(long seed, int words) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words; i++) {
            sb.append(i == 0 ? "" : r.nextInt(8) == 0 ? ", " : " ").append(WORDS[r.nextInt(WORDS.length)]);
        }
        return sb.append('.').toString();
    }

    /** {@code batch} copies of the request's token ids and attention mask, named as the model's two inputs. */
    public List<HostTensor> preprocess(String text, int batch, String idsName, String maskName) {
        long[] ids = tokenize(text);
        LongBuffer idBuf = longs(batch);
        LongBuffer maskBuf = longs(batch);
        for (int b = 0; b < batch; b++) {
            for (int i = 0; i < seqLen; i++) {
                idBuf.put(i < ids.length ? ids[i] : PAD);
                maskBuf.put(i < ids.length ? 1 : 0);
            }
        }
        long[] shape = {batch, seqLen};
        return List.of(new HostTensor(idsName, DType.INT64, shape, idBuf.flip()),
                new HostTensor(maskName, DType.INT64, shape.clone(), maskBuf.flip()));
    }

    /** [CLS] word ids [SEP], cut to the sequence length (the [SEP] kept, as tokenizers truncate). */
    long[] tokenize(String text) {
        List<String> words = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                words.add(w);
            }
        }
        int n = Math.min(words.size(), seqLen - 2);
        long[] ids = new long[n + 2];
        ids[0] = Math.min(CLS, vocab - 1);
        for (int i = 0; i < n; i++) {
            ids[i + 1] = firstWord + Math.floorMod(words.get(i).hashCode(), vocab - firstWord);
        }
        ids[n + 1] = Math.min(SEP, vocab - 1);
        return ids;
    }

    private LongBuffer longs(int batch) {
        return ByteBuffer.allocateDirect(Math.multiplyExact(Math.multiplyExact(batch, seqLen), Long.BYTES))
                .order(ByteOrder.nativeOrder()).asLongBuffer();
    }
}
