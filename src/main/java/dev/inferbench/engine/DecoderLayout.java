package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.model.Llama;
import dev.inferbench.model.OnnxExporter;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A decoder's KV-cache layout as Hugging Face Optimum exports {@code text-generation-with-past}, recognised from the
 * file's signature: inputs {@code input_ids}, {@code attention_mask}, {@code position_ids} (optional: older exports
 * lack it), {@code past_key_values.N.key/value} {@code [batch, kvHeads, past, headDim]} for N = 0..layers-1, and in a
 * merged export (one file for the first step and the cached ones) {@code use_cache_branch}, a bool {@code [1]};
 * outputs {@code logits} {@code [batch, seq, vocab]} and {@code present.N.key/value}. Caches and logits are float32
 * or float16 (an fp16 export), each of its own type. Anything else is refused in one line that says what was
 * expected: a file without cache inputs, a name this layout does not have, another element type.
 *
 * @param context    the declared longest sequence, from the file's metadata ({@code inferbench.decoder.context});
 *                   empty when the file does not say (a user's export), so nothing is checked against it
 * @param cacheType  the element type of every cache tensor (FLOAT32 or FLOAT16)
 * @param logitsType the element type of the logits (FLOAT32 or FLOAT16)
 * @param merged     whether the file takes {@code use_cache_branch}: false on a request's first step, true after
 */
public record DecoderLayout(int layers, int kvHeads, int headDim, int vocab, boolean positionIds,
                            OptionalInt context, DType cacheType, DType logitsType, boolean merged) {
    public static final String IDS = "input_ids";
    public static final String MASK = "attention_mask";
    public static final String POSITIONS = "position_ids";
    public static final String LOGITS = "logits";
    public static final String USE_CACHE_BRANCH = "use_cache_branch";
    private static final Set<DType> FLOATS = EnumSet.of(DType.FLOAT32, DType.FLOAT16);
    /**
     * Why bfloat16 decoders are refused (held by Bf16KernelsTest: when an ONNX Runtime upgrade adds the kernels, that
     * test fails and this refusal can go).
     */
    public static final String NO_BFLOAT16 = "ONNX Runtime's CPU provider has no bfloat16 kernels for a model's"
            + " arithmetic (MatMul, Add, Mul, Softmax, Where and the rest; in 1.29 only casts and data movement)";

    public DecoderLayout {
        if (!FLOATS.contains(cacheType) || !FLOATS.contains(logitsType)) {
            throw new IllegalArgumentException("caches " + cacheType + ", logits " + logitsType + ": not float32/16");
        }
    }

    /** A float32 decoder with separate first and cached steps, as Optimum's decoder_with_past_model.onnx. */
    public DecoderLayout(int layers, int kvHeads, int headDim, int vocab, boolean positionIds, OptionalInt context) {
        this(layers, kvHeads, headDim, vocab, positionIds, context, DType.FLOAT32, DType.FLOAT32, false);
    }
    private static final String META_VOCAB = OnnxExporter.META_VOCAB;
    private static final String META_CONTEXT = Llama.META_CONTEXT;
    private static final Pattern PAST = Pattern.compile("past_key_values\\.(\\d+)\\.(key|value)");
    private static final Pattern PRESENT = Pattern.compile("present\\.(\\d+)\\.(key|value)");
    private static final String EXPECTED = "expected an Optimum text-generation-with-past decoder (inputs input_ids,"
            + " attention_mask, position_ids, past_key_values.N.key/value, in a merged export use_cache_branch;"
            + " outputs logits, present.N.key/value; float32 or float16 caches and logits)";

    /** The layout of {@code file}, read without its weights. */
    public static DecoderLayout of(Path file) throws BenchException {
        OnnxFile onnx = OnnxFile.read(file, false);
        return of(onnx.signature(), onnx.metadata(), file.toString());
    }

    public static DecoderLayout of(ModelSignature signature, Map<String, String> metadata, String file)
            throws BenchException {
        Map<String, TensorSpec> in = byName(signature.inputs());
        Map<String, TensorSpec> out = byName(signature.outputs());
        TensorSpec branch = in.get(USE_CACHE_BRANCH);
        if (branch != null && (branch.type() != DType.BOOL || branch.shape().length != 1 || branch.shape()[0] != 1)) {
            throw new BenchException(file + " input " + branch + " is not a merged decoder's bool [1] switch; "
                    + EXPECTED);
        }
        List<TensorSpec> past = in.values().stream().filter(t -> PAST.matcher(t.name()).matches()).toList();
        if (past.isEmpty()) {
            throw new BenchException(file + " has no KV-cache inputs (past_key_values.N.key/value; inputs: "
                    + in.keySet() + "), so every token would recompute the whole sequence; " + EXPECTED
                    + " (optimum-cli export onnx --task text-generation-with-past)");
        }
        List<String> unknown = new ArrayList<>();
        for (String name : in.keySet()) {
            if (!name.equals(IDS) && !name.equals(MASK) && !name.equals(POSITIONS) && !name.equals(USE_CACHE_BRANCH)
                    && !PAST.matcher(name).matches()) {
                unknown.add(name);
            }
        }
        for (String name : out.keySet()) {
            if (!name.equals(LOGITS) && !PRESENT.matcher(name).matches()) {
                unknown.add(name);
            }
        }
        if (!unknown.isEmpty() || !in.containsKey(IDS) || !in.containsKey(MASK) || !out.containsKey(LOGITS)) {
            throw new BenchException(file + " does not have the decoder layout: " + (unknown.isEmpty()
                    ? "missing " + missing(in, out) : "unknown names " + unknown) + "; " + EXPECTED);
        }
        // from the highest layer named, so that a half pair (a key without its value) is caught below
        int layers = 1 + past.stream().mapToInt(t -> {
            Matcher m = PAST.matcher(t.name());
            return m.matches() ? Integer.parseInt(m.group(1)) : 0;
        }).max().orElse(0);
        TensorSpec first = in.get("past_key_values.0.key");
        TensorSpec logits = out.get(LOGITS);
        for (TensorSpec t : new TensorSpec[]{first, logits}) {
            if (t != null && t.type() == DType.BFLOAT16) {
                throw new BenchException(file + " has bfloat16 " + (t == first ? "caches" : "logits") + " (" + t + "): "
                        + NO_BFLOAT16 + "; expected float32 or float16 caches and logits (export with --dtype fp32"
                        + " or fp16)");
            }
        }
        for (int i = 0; i < layers; i++) {
            for (String kind : new String[]{"key", "value"}) {
                TensorSpec p = in.get("past_key_values." + i + "." + kind);
                if (p == null || !out.containsKey("present." + i + "." + kind)) {
                    throw new BenchException(file + " has " + past.size() + " past_key_values inputs but no "
                            + (p == null ? "past_key_values." : "present.") + i + "." + kind + "; " + EXPECTED);
                }
                if (!FLOATS.contains(first.type()) || p.type() != first.type() || p.shape().length != 4
                        || p.shape()[1] <= 0 || p.shape()[3] <= 0
                        || p.shape()[1] != first.shape()[1] || p.shape()[3] != first.shape()[3]) {
                    throw new BenchException(file + " input " + p + " is not a float32 or float16 cache [batch,"
                            + " kv_heads, past, head_dim] with fixed kv_heads and head_dim, of the type and sizes of "
                            + first + "; " + EXPECTED);
                }
            }
        }
        long width = logits.shape().length == 3 ? logits.shape()[2] : -1;
        if (!FLOATS.contains(logits.type()) || width <= 0) {
            throw new BenchException(file + " output " + logits + " is not float32 or float16 logits [batch, seq,"
                    + " vocab] with a fixed vocabulary; " + EXPECTED);
        }
        String declared = metadata.get(META_VOCAB);
        if (declared != null && !declared.trim().equals(Long.toString(width))) {
            throw new BenchException(file + " has a vocabulary mismatch: its metadata says " + META_VOCAB + "="
                    + declared + " but its logits have " + width + " entries; expected the two to agree"
                    + " (token ids would index past the embedding table)");
        }
        return new DecoderLayout(layers, (int) first.shape()[1], (int) first.shape()[3], (int) width,
                in.containsKey(POSITIONS), context(metadata, file), first.type(), logits.type(), branch != null);
    }

    /** Bytes the cache holds per token of one sequence: key and value, every layer, in the cache's type. */
    public long cacheBytesPerToken() {
        return 2L * layers * kvHeads * headDim * cacheType.bytes();
    }

    private static OptionalInt context(Map<String, String> metadata, String file) throws BenchException {
        String v = metadata.get(META_CONTEXT);
        if (v == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            throw new BenchException(file + " metadata " + META_CONTEXT + "='" + v + "' is not a whole number;"
                    + " expected the context length in tokens", e);
        }
    }

    private static String missing(Map<String, TensorSpec> in, Map<String, TensorSpec> out) {
        List<String> m = new ArrayList<>();
        for (String name : new String[]{IDS, MASK}) {
            if (!in.containsKey(name)) {
                m.add("input " + name);
            }
        }
        if (!out.containsKey(LOGITS)) {
            m.add("output " + LOGITS);
        }
        return String.join(", ", m);
    }

    private static Map<String, TensorSpec> byName(List<TensorSpec> specs) {
        Map<String, TensorSpec> m = new LinkedHashMap<>();
        specs.forEach(t -> m.put(t.name(), t));
        return m;
    }
}
