package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prompt and output lengths of generation requests under load, from a stated distribution: each of
 * {@code promptLen} and {@code outputLen} fixed ({@code 128}) or uniform over a range of whole numbers, both ends
 * included ({@code uniform(32..128)}; a comma would split the value into two cells, JMH's list separator), drawn
 * seeded per step; or a file of {@code prompt,output} pairs ({@code lengths=trace.csv}), request i of a step taking
 * pair i modulo their count, in the file's order. The file takes the place of both parameters. With a prompt file
 * ({@code prompts=FILE}, {@link PromptFile}) the prompts are the file's, encoded by the model's tokenizer, each step's
 * requests taking them in a seeded order (a permutation of the file per step, repeated as needed); the output length
 * is then the most a request may generate, a sequence stopping earlier at its end-of-sequence token.
 *
 * @param prompt the prompt's distribution (null with a file)
 * @param output the output's distribution (null with a file)
 * @param pairs  the file's pairs, {prompt, output} (empty without a file)
 * @param source the file's name, or "" without one
 * @param prompts the prompt file (its prompts take the place of {@code prompt}), or null
 */
public record RequestLengths(Dist prompt, Dist output, List<int[]> pairs, String source, PromptFile prompts)
        implements FitsContext {
    public static final String LENGTHS = "lengths";
    /** {@code lengths=none}: the lengths come from promptLen and outputLen. */
    public static final String NONE = "none";
    private static final Pattern UNIFORM = Pattern.compile("uniform\\((\\d+)\\.\\.(\\d+)\\)");

    /** One length's distribution: whole numbers from {@code low} to {@code high}, both included, uniform. */
    public record Dist(int low, int high) {
        int draw(SplittableRandom random) {
            return low == high ? low : low + random.nextInt(high - low + 1);
        }

        @Override
        public String toString() {
            return low == high ? Integer.toString(low) : "uniform(" + low + ".." + high + ")";
        }
    }

    /**
     * The lengths of a step's requests, and each one's prompt ids (seeded, uniform in the vocabulary, as
     * {@link GenerationSpec#prompt}), drawn before the step so that no request pays for its own.
     */
    public record Drawn(int[] prompt, int[] output, long[][] ids) {
        public int requests() {
            return prompt.length;
        }
    }

    /** Lengths without a prompt file. */
    public RequestLengths(Dist prompt, Dist output, List<int[]> pairs, String source) {
        this(prompt, output, pairs, source, null);
    }

    public static RequestLengths of(Map<String, String> params) throws BenchException {
        String file = params.getOrDefault(LENGTHS, NONE).strip();
        PromptFile prompts = PromptFile.of(params);
        if (!file.equals(NONE)) {
            if (prompts != null) {
                throw new BenchException("lengths=" + file + " and prompts=" + prompts + " do not go together: each"
                        + " gives the prompts' lengths; expected one of them");
            }
            return new RequestLengths(null, null, read(Path.of(file)), file);
        }
        Dist prompt = dist(params, GenerationSpec.PROMPT_LEN, "128");
        if (prompts != null && !prompt.equals(new Dist(GenerationSpec.DEFAULT_PROMPT_LEN,
                GenerationSpec.DEFAULT_PROMPT_LEN))) {
            throw new BenchException("promptLen=" + prompt + " and prompts=" + prompts + " do not go together: the"
                    + " file's prompts give the prompt lengths; expected one of them");
        }
        return new RequestLengths(prompt, dist(params, GenerationSpec.OUTPUT_LEN, "64"), List.of(), "", prompts);
    }

    /** The lengths of {@code requests} requests, seeded (a file's pairs in order), and their prompts' ids. */
    public Drawn draw(int requests, long seed, int vocab) {
        return draw(requests, seed, vocab, null);
    }

    /**
     * As {@link #draw(int, long, int)}; with {@code encoded} (this cell's prompt file as encoded), request i takes
     * prompt {@code order[i mod n]} of a seeded permutation of the file, and its output length is drawn as without.
     */
    public Drawn draw(int requests, long seed, int vocab, Prompts encoded) {
        int[] p = new int[requests];
        int[] o = new int[requests];
        long[][] ids = new long[requests][];
        SplittableRandom random = new SplittableRandom(seed);
        int[] order = encoded == null ? null : permutation(encoded.size(), random);
        for (int i = 0; i < requests; i++) {
            if (order != null) {
                ids[i] = encoded.ids().get(order[i % order.length]);
                p[i] = ids[i].length;
                o[i] = output.draw(random);
                continue;
            }
            if (pairs.isEmpty()) {
                p[i] = prompt.draw(random);
                o[i] = output.draw(random);
            } else {
                p[i] = pairs.get(i % pairs.size())[0];
                o[i] = pairs.get(i % pairs.size())[1];
            }
            ids[i] = new long[p[i]];
            for (int t = 0; t < p[i]; t++) {
                ids[i][t] = random.nextInt(vocab);
            }
        }
        return new Drawn(p, o, ids);
    }

    private static int[] permutation(int n, SplittableRandom random) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /** The prompt file's prompts, encoded by the tokenizer beside {@code modelFile}; null without a prompt file. */
    public Prompts encode(Path modelFile, DecoderLayout layout) throws BenchException {
        return prompts == null ? null : Prompts.encode(prompts, modelFile, layout.vocab());
    }

    /** The longest prompt and output a request can have together: what the cache must hold. */
    public int longest() {
        return pairs.isEmpty() ? prompt.high() + output.high()
                : pairs.stream().mapToInt(x -> x[0] + x[1]).max().orElseThrow();
    }

    /** As {@link #longest()}, with a prompt file's prompts as encoded ({@code encoded}; null without a file). */
    public int longest(Prompts encoded) {
        return encoded == null ? longest()
                : encoded.ids().stream().mapToInt(ids -> ids.length).max().orElse(0) + output.high();
    }

    /** Every request fits the context the decoder declares (a file's pair by its line). */
    @Override
    public void check(DecoderLayout layout, String model, Path file) throws BenchException {
        Prompts encoded = encode(file, layout);
        if (layout.context().isEmpty()) {
            return;
        }
        int context = layout.context().getAsInt();
        if (encoded != null) {
            encoded.checkFits(output.high(), context, model);
        } else if (!pairs.isEmpty()) {
            for (int[] pair : pairs) {
                if (pair[0] + pair[1] > context) {
                    throw new BenchException(source + " line " + pair[2] + ": prompt " + pair[0] + " + output "
                            + pair[1] + " = " + (pair[0] + pair[1]) + " tokens is longer than the " + context
                            + "-token context of model '" + model + "'; expected prompt + output <= " + context);
                }
            }
        } else if (longest() > context) {
            throw new BenchException("promptLen " + prompt + " + outputLen " + output + " reach " + longest()
                    + " tokens, longer than the " + context + "-token context of model '" + model + "'; expected the longest"
                    + " prompt + the longest output <= " + context);
        }
    }

    /** promptLen=uniform(32..128) outputLen=64, or lengths=trace.csv (57 pairs) */
    @Override
    public String toString() {
        return prompts != null ? PromptFile.PARAM + "=" + prompts + " outputLen=" + output
                : pairs.isEmpty() ? "promptLen=" + prompt + " outputLen=" + output
                : LENGTHS + "=" + source + " (" + pairs.size() + " pairs)";
    }

    private static Dist dist(Map<String, String> params, String name, String absent) throws BenchException {
        String text = params.getOrDefault(name, absent).strip();
        Matcher m = UNIFORM.matcher(text);
        try {
            if (m.matches()) {
                int low = Integer.parseInt(m.group(1));
                int high = Integer.parseInt(m.group(2));
                if (low >= 1 && low <= high) {
                    return new Dist(low, high);
                }
            } else {
                int n = Integer.parseInt(text);
                if (n >= 1) {
                    return new Dist(n, n);
                }
            }
        } catch (NumberFormatException tooLong) {
            // reported below
        }
        throw new BenchException(name + " '" + text + "' is not a length distribution; expected a whole number >= 1"
                + " (128) or uniform(a..b) with 1 <= a <= b (uniform(32..128))");
    }

    /** {prompt, output, line} per pair; blank lines, {@code #} comments and a {@code prompt,output} header skipped. */
    private static List<int[]> read(Path file) throws BenchException {
        String expected = "expected one prompt,output pair of whole numbers >= 1 per line, e.g. 128,64";
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("lengths file " + file + " cannot be read (" + e.getClass().getSimpleName() + "); "
                    + expected, e);
        }
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#") || (pairs.isEmpty() && line.equalsIgnoreCase("prompt,output"))) {
                continue;
            }
            String[] parts = line.split("\\s*,\\s*");
            int[] pair = parts.length == 2 ? new int[]{whole(parts[0]), whole(parts[1]), i + 1} : null;
            if (pair == null || pair[0] < 1 || pair[1] < 1) {
                throw new BenchException("lengths file " + file + " line " + (i + 1) + ": '" + line + "' is not a"
                        + " prompt,output pair; " + expected);
            }
            pairs.add(pair);
        }
        if (pairs.isEmpty()) {
            throw new BenchException("lengths file " + file + " holds no pair; " + expected);
        }
        return pairs;
    }

    private static int whole(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
