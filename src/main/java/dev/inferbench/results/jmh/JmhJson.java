package dev.inferbench.results.jmh;

import dev.inferbench.Json;
import java.util.Locale;
import java.util.Arrays;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one reader of JMH's JSON result files. It takes JMH's quirks in its stride: NaN and infinities written as
 * strings, parameters as strings, the {@code ·} prefix of older profiler metric names, SampleTime's percentiles and
 * per-iteration histograms, profiler metrics with the unit {@code ---}, and files from any benchmark. Anything
 * that is not a JMH result file is refused with one line saying what was found.
 */
public final class JmhJson {
    static final ObjectMapper MAPPER = Json.mapper(Json.Option.FAST_DOUBLES);

    private JmhJson() {
    }

    public static List<MeasuredCell> read(Path file) throws BenchException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (NoSuchFileException e) {
            throw new BenchException("result file not found: " + file + "; expected a JMH JSON file (jmh-result.json)", e);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Streams the file: each cell is read straight from the token stream into its record, with no JSON tree in
     * between (through trees, a 10,000-cell file made 1.5 GB of garbage), and numbers are parsed by Jackson's fast
     * parser (JDK 17's {@code Double.parseDouble} took a third of the allocation on JMH's 17-digit values).
     */
    public static List<MeasuredCell> read(InputStream in, String source) throws BenchException {
        try (JsonParser p = MAPPER.getFactory().createParser(in)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new BenchException(source + " is empty; expected a JMH result file (a JSON array of benchmarks)");
            }
            if (first != JsonToken.START_ARRAY) {
                throw new BenchException(source + " is not a JMH result file (a JSON " + kind(first)
                        + ", not an array of benchmarks)");
            }
            List<MeasuredCell> cells = new ArrayList<>();
            int i = 0;
            try {
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    cells.add(cell(p, source + " entry " + i++));
                }
            } catch (BenchException wrongContent) {
                // a file that is not even valid JSON says so, wherever its first wrong value is
                while (p.nextToken() != null) {
                    p.skipChildren();
                }
                throw wrongContent;
            }
            return cells;
        } catch (JsonProcessingException e) {
            throw new BenchException(source + " is not valid JSON (" + e.getOriginalMessage()
                    + (e.getLocation() == null ? "" : ", line " + e.getLocation().getLineNr())
                    + "); expected a JMH result file, complete", e);
        } catch (IOException e) {
            throw new BenchException("cannot read " + source + ": " + e.getMessage(), e);
        }
    }

    /** How a JSON value that is not an array reads in a message: "object", "string", "number" ... */
    private static String kind(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "object";
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            default -> t.name().toLowerCase(Locale.ROOT);
        };
    }

    /** One entry of the array, the parser on its first token; leaves the parser on the entry's last token. */
    private static MeasuredCell cell(JsonParser p, String where) throws IOException, BenchException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            throw notACell(where);
        }
        String benchmark = null;
        String mode = "?";
        int threads = 1;
        int forks = 0;
        Map<String, String> params = new LinkedHashMap<>();
        JmhMetric primary = null;
        Map<String, JmhMetric> secondary = new LinkedHashMap<>();
        Map<String, Object> run = new LinkedHashMap<>();
        String field;
        while ((field = p.nextFieldName()) != null) {
            JsonToken t = p.nextToken();
            switch (field) {
                case "benchmark" -> benchmark = t == JsonToken.VALUE_STRING ? p.getText() : skipped(p, null);
                case "mode" -> mode = text(p, "?");
                case "threads" -> threads = integer(p, 1);
                case "forks" -> forks = integer(p, 0);
                case "params" -> {
                    if (t == JsonToken.START_OBJECT) {
                        String name;
                        while ((name = p.nextFieldName()) != null) {
                            p.nextToken();
                            params.put(name, text(p, ""));
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                case "primaryMetric" -> primary = t == JsonToken.START_OBJECT
                        ? metric(p, where + " primaryMetric") : skipped(p, null);
                case "secondaryMetrics" -> {
                    if (t == JsonToken.START_OBJECT) {
                        String name;
                        while ((name = p.nextFieldName()) != null) {
                            p.nextToken();
                            String metric = normalize(name);
                            secondary.put(metric, LegacyUnits.current(metric, metric(p, where + " metric " + name)));
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                default -> run.put(field, p.readValueAs(Object.class));
            }
        }
        if (benchmark == null || primary == null) {
            throw notACell(where);
        }
        return new MeasuredCell(benchmark, mode, threads, forks, params, primary, secondary, run);
    }

    private static BenchException notACell(String where) {
        return new BenchException(where + " is not a JMH benchmark result (no benchmark name or primaryMetric)");
    }

    /** Skips the value the parser is on (all of it, when it is an array or object) and stands for it. */
    private static <T> T skipped(JsonParser p, T standIn) throws IOException {
        p.skipChildren();
        return standIn;
    }

    /** A scalar as text ({@code 1}, {@code "1"} and {@code true} as written); null, arrays and objects: otherwise. */
    private static String text(JsonParser p, String otherwise) throws IOException {
        JsonToken t = p.currentToken();
        return t.isScalarValue() && t != JsonToken.VALUE_NULL ? p.getText() : skipped(p, otherwise);
    }

    /** An int field: a whole number in int range, or a string holding one; anything else reads as the default. */
    private static int integer(JsonParser p, int otherwise) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            double d = p.getDoubleValue();
            return d == Math.rint(d) && Math.abs(d) <= Integer.MAX_VALUE ? (int) d : otherwise;
        }
        if (t == JsonToken.VALUE_STRING) {
            try {
                return Integer.parseInt(p.getText().strip());
            } catch (NumberFormatException e) {
                return otherwise;
            }
        }
        return skipped(p, otherwise);
    }

    /** {@code ·gc.alloc.rate} (JMH before 1.30) and {@code gc.alloc.rate} are the same metric. */
    static String normalize(String name) {
        return name.startsWith("\u00b7") ? name.substring(1) : name;
    }

    private static JmhMetric metric(JsonParser p, String where) throws IOException, BenchException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            p.skipChildren();
            throw new BenchException(where + " is not a metric object");
        }
        double score = Double.NaN;
        double error = Double.NaN;
        double[] confidence = {Double.NaN, Double.NaN};
        TreeMap<Double, Double> percentiles = new TreeMap<>();
        String unit = "---";
        List<List<Double>> raw = List.of();
        List<List<double[]>> hist = List.of();
        String field;
        while ((field = p.nextFieldName()) != null) {
            p.nextToken();
            switch (field) {
                case "score" -> score = number(p, where);
                case "scoreError" -> error = number(p, where);
                case "scoreConfidence" -> confidence = firstTwo(p, where);
                case "scorePercentiles" -> {
                    if (p.currentToken() == JsonToken.START_OBJECT) {
                        String key;
                        while ((key = p.nextFieldName()) != null) {
                            p.nextToken();
                            percentiles.put(number(key, where), number(p, where));
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                case "scoreUnit" -> unit = text(p, "---");
                case "rawData" -> raw = elements(p, q -> Arrays.stream(numbers(q, where)).boxed().toList());
                case "rawDataHistogram" -> hist = elements(p, fork -> elements(fork, iteration -> bins(iteration, where)));
                default -> p.skipChildren();
            }
        }
        return new JmhMetric(score, error, confidence, percentiles, unit, raw, hist);
    }

    /** Reads one element of an array, the parser on its first token. */
    private interface Element<T> {
        T read(JsonParser p) throws IOException, BenchException;
    }

    /** Each element of the array the parser is on; a value that is not an array holds none (and is skipped). */
    private static <T> List<T> elements(JsonParser p, Element<T> element) throws IOException, BenchException {
        List<T> out = new ArrayList<>();
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return out;
        }
        while (p.nextToken() != JsonToken.END_ARRAY) {
            out.add(element.read(p));
        }
        return out;
    }

    /** One iteration of {@code rawDataHistogram}: its [value, count] bins, flat (no array per bin). */
    private static double[] bins(JsonParser p, String where) throws IOException, BenchException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return new double[0];
        }
        double[] bins = new double[16];
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n + 2 > bins.length) {
                bins = Arrays.copyOf(bins, bins.length * 2);
            }
            firstTwo(p, where, bins, n);
            n += 2;
        }
        return n == bins.length ? bins : Arrays.copyOf(bins, n);
    }

    /**
     * The first two numbers of the array the parser is on (NaN where missing); anything after them is skipped
     * unread, and a value that is not an array reads as two NaNs.
     */
    private static double[] firstTwo(JsonParser p, String where) throws IOException, BenchException {
        double[] two = new double[2];
        firstTwo(p, where, two, 0);
        return two;
    }

    /** {@link #firstTwo(JsonParser, String)} into {@code into[at]} and {@code into[at + 1]}: no array per bin. */
    private static void firstTwo(JsonParser p, String where, double[] into, int at) throws IOException, BenchException {
        into[at] = Double.NaN;
        into[at + 1] = Double.NaN;
        if (p.currentToken() != JsonToken.START_ARRAY) {
            p.skipChildren();
            return;
        }
        for (int k = 0; p.nextToken() != JsonToken.END_ARRAY; k++) {
            if (k < 2) {
                into[at + k] = number(p, where);
            } else {
                p.skipChildren();
            }
        }
    }

    /** The numbers of the array the parser is on; a value that is not an array holds none (and is skipped). */
    private static double[] numbers(JsonParser p, String where) throws IOException, BenchException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            return skipped(p, new double[0]);
        }
        double[] values = new double[8];
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
            }
            values[n++] = number(p, where);
        }
        return n == values.length ? values : Arrays.copyOf(values, n);
    }

    /** JMH writes NaN and infinities as strings; null reads as NaN. The parser is on the value, and stays there. */
    private static double number(JsonParser p, String where) throws IOException, BenchException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            return p.getDoubleValue();
        }
        if (t == JsonToken.VALUE_NULL) {
            return Double.NaN;
        }
        if (t.isScalarValue()) {
            return number(p.getText(), where);
        }
        p.skipChildren();
        return number(t == JsonToken.START_ARRAY ? "[...]" : "{...}", where);
    }

    private static double number(String s, String where) throws BenchException {
        switch (s) {
            case "NaN":
                return Double.NaN;
            case "Infinity", "+Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new BenchException(where + " holds '" + s + "' where a number was expected", e);
                }
        }
    }
}
