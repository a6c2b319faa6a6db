package dev.inferbench.results.jmh;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one reader of JMH's JSON result files. It takes JMH's quirks in its stride: NaN and infinities written as
 * strings, parameters as strings, the {@code ·} prefix of older profiler metric names, SampleTime's percentiles and
 * per-iteration histograms, profiler metrics with the unit {@code ---}, and files from any benchmark. Anything
 * that is not a JMH result file is refused with one line saying what was found.
 */
public final class JmhJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> OWN_FIELDS = Set.of("benchmark", "mode", "threads", "forks", "params",
            "primaryMetric", "secondaryMetrics");

    private JmhJson() {
    }

    public static List<JmhCell> read(Path file) throws BenchException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (NoSuchFileException e) {
            throw new BenchException("result file not found: " + file + "; expected a JMH JSON file (jmh-result.json)", e);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Streams the top-level array and builds one cell's tree at a time: a 10,000-cell file is never one tree in
     * memory (that tree, and the garbage collection it caused, was most of a big report's time).
     */
    public static List<JmhCell> read(InputStream in, String source) throws BenchException {
        try (JsonParser p = MAPPER.getFactory().createParser(in)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new BenchException(source + " is empty; expected a JMH result file (a JSON array of benchmarks)");
            }
            if (first != JsonToken.START_ARRAY) {
                throw new BenchException(source + " is not a JMH result file (a JSON " + kind(first)
                        + ", not an array of benchmarks)");
            }
            List<JmhCell> cells = new ArrayList<>();
            int i = 0;
            while (p.nextToken() != JsonToken.END_ARRAY) {
                JsonNode n = p.readValueAsTree();
                cells.add(cell(n, source + " entry " + i++));
            }
            return cells;
        } catch (JsonProcessingException e) {
            throw new BenchException(source + " is not valid JSON (" + e.getOriginalMessage()
                    + ", line " + e.getLocation().getLineNr() + "); expected a JMH result file, complete", e);
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
            default -> t.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static JmhCell cell(JsonNode n, String where) throws BenchException {
        if (!n.isObject() || !n.path("benchmark").isTextual() || !n.path("primaryMetric").isObject()) {
            throw new BenchException(where + " is not a JMH benchmark result (no benchmark name or primaryMetric)");
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("params").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            params.put(e.getKey(), e.getValue().asText());
        }
        Map<String, JmhMetric> secondary = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("secondaryMetrics").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            secondary.put(normalize(e.getKey()), metric(e.getValue(), where + " metric " + e.getKey()));
        }
        Map<String, Object> run = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!OWN_FIELDS.contains(e.getKey())) {
                run.put(e.getKey(), MAPPER.convertValue(e.getValue(), Object.class));
            }
        }
        return new JmhCell(n.get("benchmark").asText(), n.path("mode").asText("?"), n.path("threads").asInt(1),
                n.path("forks").asInt(0), params, metric(n.get("primaryMetric"), where + " primaryMetric"),
                secondary, run);
    }

    /** {@code ·gc.alloc.rate} (JMH before 1.30) and {@code gc.alloc.rate} are the same metric. */
    static String normalize(String name) {
        return name.startsWith("\u00b7") ? name.substring(1) : name;
    }

    private static JmhMetric metric(JsonNode m, String where) throws BenchException {
        if (!m.isObject()) {
            throw new BenchException(where + " is not a metric object");
        }
        TreeMap<Double, Double> percentiles = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = m.path("scorePercentiles").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            percentiles.put(number(e.getKey(), where), number(e.getValue(), where));
        }
        JsonNode conf = m.path("scoreConfidence");
        double[] confidence = {number(conf.path(0), where), number(conf.path(1), where)};
        List<List<Double>> raw = new ArrayList<>();
        for (JsonNode fork : m.path("rawData")) {
            List<Double> its = new ArrayList<>();
            for (JsonNode v : fork) {
                its.add(number(v, where));
            }
            raw.add(its);
        }
        List<List<List<double[]>>> hist = new ArrayList<>();
        for (JsonNode fork : m.path("rawDataHistogram")) {
            List<List<double[]>> its = new ArrayList<>();
            for (JsonNode iteration : fork) {
                List<double[]> bins = new ArrayList<>();
                for (JsonNode bin : iteration) {
                    bins.add(new double[]{number(bin.path(0), where), number(bin.path(1), where)});
                }
                its.add(bins);
            }
            hist.add(its);
        }
        return new JmhMetric(number(m.path("score"), where), number(m.path("scoreError"), where), confidence,
                percentiles, m.path("scoreUnit").asText("---"), raw, hist);
    }

    /** JMH writes NaN and infinities as strings; a missing value reads as NaN. */
    private static double number(JsonNode v, String where) throws BenchException {
        if (v.isNumber()) {
            return v.asDouble();
        }
        if (v.isMissingNode() || v.isNull()) {
            return Double.NaN;
        }
        return number(v.asText(), where);
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

    /** Writes cells back as JMH writes them (NaN and infinities as strings), unindented; the stream stays open. */
    public static void write(List<JmhCell> cells, java.io.OutputStream out) throws IOException {
        JsonGenerator g = MAPPER.getFactory().createGenerator(new NonClosing(out));
        g.writeStartArray();
        for (JmhCell c : cells) {
            ObjectNode n = MAPPER.createObjectNode();
            c.run().forEach((k, v) -> n.set(k, MAPPER.valueToTree(v)));
            ObjectNode ordered = MAPPER.createObjectNode();
            ordered.put("jmhVersion", n.path("jmhVersion").asText("1.37"));
            ordered.put("benchmark", c.benchmark());
            ordered.put("mode", c.mode());
            ordered.put("threads", c.threads());
            ordered.put("forks", c.forks());
            n.fields().forEachRemaining(e -> ordered.set(e.getKey(), e.getValue()));
            ObjectNode params = ordered.putObject("params");
            c.params().forEach(params::put);
            ordered.set("primaryMetric", metricNode(c.primary()));
            ObjectNode sec = ordered.putObject("secondaryMetrics");
            c.secondary().forEach((k, v) -> sec.set(k, metricNode(v)));
            MAPPER.writeTree(g, ordered); // one cell's tree at a time, as read
        }
        g.writeEndArray();
        // compact: the export is for tools (JMH Visualizer), and indenting 10,000 cells' histograms costs seconds
        g.close();
    }

    private static ObjectNode metricNode(JmhMetric m) {
        ObjectNode n = MAPPER.createObjectNode();
        put(n, "score", m.score());
        put(n, "scoreError", m.scoreError());
        var conf = n.putArray("scoreConfidence");
        for (double d : m.scoreConfidence()) {
            conf.add(value(d));
        }
        ObjectNode pct = n.putObject("scorePercentiles");
        m.percentiles().forEach((k, v) -> pct.set(Double.toString(k), value(v)));
        n.put("scoreUnit", m.unit());
        if (!m.rawData().isEmpty()) {
            var raw = n.putArray("rawData");
            m.rawData().forEach(f -> {
                var fork = raw.addArray();
                f.forEach(v -> fork.add(value(v)));
            });
        }
        if (!m.histograms().isEmpty()) {
            var hist = n.putArray("rawDataHistogram");
            m.histograms().forEach(f -> {
                var fork = hist.addArray();
                f.forEach(it -> {
                    var iteration = fork.addArray();
                    it.forEach(b -> iteration.addArray().add(value(b[0])).add(value(b[1])));
                });
            });
        }
        return n;
    }

    private static void put(ObjectNode n, String key, double v) {
        n.set(key, value(v));
    }

    private static JsonNode value(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return MAPPER.getNodeFactory().textNode(Double.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return MAPPER.getNodeFactory().numberNode((long) v);
        }
        return MAPPER.getNodeFactory().numberNode(v);
    }

    /** Jackson closes the stream it writes to; writers here never close what they are given. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(java.io.OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
