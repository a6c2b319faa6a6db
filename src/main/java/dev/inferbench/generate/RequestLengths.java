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
 * pair i modulo their count, in the file's order. The file takes the place of both parameters.
 *
 * @param prompt the prompt's distribution (null with a file)
 * @param output the output's distribution (null with a file)
 * @param pairs  the file's pairs, {prompt, output} (empty without a file)
 * @param source the file's name, or "" without one
 */
public record RequestLengths(Dist prompt, Dist output, List<int[]> pairs, String source) implements FitsContext {
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

    public static RequestLengths of(Map<String, String> params) throws BenchException {
        String file = params.getOrDefault(LENGTHS, NONE).strip();
        if (!file.equals(NONE)) {
            return new RequestLengths(null, null, read(Path.of(file)), file);
        }
        return new RequestLengths(dist(params, GenerationSpec.PROMPT_LEN, "128"),
                dist(params, GenerationSpec.OUTPUT_LEN, "64"), List.of(), "");
    }

    /** The lengths of {@code requests} requests, seeded (a file's pairs in order), and their prompts' ids. */
    public Drawn draw(int requests, long seed, int vocab) {
        int[] p = new int[requests];
        int[] o = new int[requests];
        long[][] ids = new long[requests][];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < requests; i++) {
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

    /** The longest prompt and output a request can have together: what the cache must hold. */
    public int longest() {
        return pairs.isEmpty() ? prompt.high() + output.high()
                : pairs.stream().mapToInt(x -> x[0] + x[1]).max().orElseThrow();
    }

    /** Every request fits the context the decoder declares (a file's pair by its line). */
    @Override
    public void check(DecoderLayout layout, String model) throws BenchException {
        if (layout.context().isEmpty()) {
            return;
        }
        int context = layout.context().getAsInt();
        if (!pairs.isEmpty()) {
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
        return pairs.isEmpty() ? "promptLen=" + prompt + " outputLen=" + output
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
