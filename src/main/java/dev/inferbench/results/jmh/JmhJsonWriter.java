package dev.inferbench.results.jmh;

import java.io.OutputStream;
import java.io.FilterOutputStream;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.inferbench.results.jmh.JmhJson.MAPPER;

/**
 * JMH JSON written back: cells as JMH writes them ({@link #write}), and a run's own files for JMH Visualizer
 * ({@link #writeForVisualizer}). The reading side, and the quirks it accepts, is {@link JmhJson}.
 */
public final class JmhJsonWriter {
    private JmhJsonWriter() {
    }

    /**
     * Writes cells back as JMH writes them (NaN and infinities as strings), unindented, token by token (no tree per
     * cell); the stream stays open.
     */
    public static void write(List<MeasuredCell> cells, OutputStream out) throws IOException {
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(new NonClosing(out))) {
            g.writeStartArray();
            for (MeasuredCell c : cells) {
                g.writeStartObject();
                Object version = c.run().get("jmhVersion");
                g.writeStringField("jmhVersion", version instanceof String v ? v : "1.37");
                g.writeStringField("benchmark", c.benchmark());
                g.writeStringField("mode", c.mode());
                g.writeNumberField("threads", c.threads());
                g.writeNumberField("forks", c.forks());
                for (Map.Entry<String, Object> e : c.run().entrySet()) {
                    if (!e.getKey().equals("jmhVersion")) {
                        g.writeFieldName(e.getKey());
                        g.writeObject(e.getValue());
                    }
                }
                g.writeObjectFieldStart("params");
                for (Map.Entry<String, String> e : c.params().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
                g.writeFieldName("primaryMetric");
                metric(g, c.primary());
                g.writeObjectFieldStart("secondaryMetrics");
                for (Map.Entry<String, JmhMetric> e : c.secondary().entrySet()) {
                    g.writeFieldName(e.getKey());
                    metric(g, e.getValue());
                }
                g.writeEndObject();
                g.writeEndObject();
            }
            g.writeEndArray();
            // compact: the export is for tools (JMH Visualizer), and indenting 10,000 cells' histograms costs seconds
        }
    }

    private static void metric(JsonGenerator g, JmhMetric m) throws IOException {
        g.writeStartObject();
        g.writeFieldName("score");
        value(g, m.score());
        g.writeFieldName("scoreError");
        value(g, m.scoreError());
        g.writeArrayFieldStart("scoreConfidence");
        for (double d : m.scoreConfidence()) {
            value(g, d);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("scorePercentiles");
        for (Map.Entry<Double, Double> e : m.percentiles().entrySet()) {
            g.writeFieldName(Double.toString(e.getKey()));
            value(g, e.getValue());
        }
        g.writeEndObject();
        g.writeStringField("scoreUnit", m.unit());
        if (!m.rawData().isEmpty()) {
            g.writeArrayFieldStart("rawData");
            for (List<Double> fork : m.rawData()) {
                g.writeStartArray();
                for (double v : fork) {
                    value(g, v);
                }
                g.writeEndArray();
            }
            g.writeEndArray();
        }
        if (!m.histograms().isEmpty()) {
            g.writeArrayFieldStart("rawDataHistogram");
            for (List<double[]> fork : m.histograms()) {
                g.writeStartArray();
                for (double[] bins : fork) {
                    g.writeStartArray();
                    for (int i = 0; i + 1 < bins.length; i += 2) {
                        g.writeStartArray();
                        value(g, bins[i]);
                        value(g, bins[i + 1]);
                        g.writeEndArray();
                    }
                    g.writeEndArray();
                }
                g.writeEndArray();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** NaN and infinities as JMH writes them (strings), whole numbers without a fraction, the rest as doubles. */
    private static void value(JsonGenerator g, double v) throws IOException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            g.writeString(Double.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            g.writeNumber((long) v);
        } else {
            g.writeNumber(v);
        }
    }

    /**
     * The JMH files as one JMH result array for JMH Visualizer: every token copied as written (numbers keep their
     * digits, nothing is parsed into doubles and printed back), except that secondary metric names get the
     * {@code ·} prefix JMH wrote before 1.30. JMH Visualizer offers a metric in its run view only when its name
     * starts with {@code ·}, so JMH 1.37's {@code gc.alloc.rate} would be unreachable there. The files must have been
     * read by {@link #read(Path)} already; the stream stays open.
     */
    public static void writeForVisualizer(List<Path> files, OutputStream out) throws IOException {
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(new NonClosing(out))) {
            g.writeStartArray();
            for (Path file : files) {
                try (JsonParser p = MAPPER.getFactory().createParser(file.toFile())) {
                    if (p.nextToken() != JsonToken.START_ARRAY) {
                        throw new IOException(file + " is no longer a JMH result file");
                    }
                    copyEntries(p, g);
                }
            }
            g.writeEndArray();
        }
    }

    /** Copies the entries of the array the parser is in, up to its end, renaming secondary metrics. */
    private static void copyEntries(JsonParser p, JsonGenerator g) throws IOException {
        int depth = 1; // inside the top-level array
        boolean secondary = false;
        for (JsonToken t = p.nextToken(); depth > 0; t = p.nextToken()) {
            if (t == null) {
                throw new IOException("a JMH result file ended early");
            }
            switch (t) {
                case START_ARRAY, START_OBJECT -> {
                    depth++;
                    g.copyCurrentEvent(p);
                }
                case END_ARRAY, END_OBJECT -> {
                    depth--;
                    if (depth == 2) {
                        secondary = false; // the end of secondaryMetrics, or of another field of the entry
                    }
                    if (depth > 0) {
                        g.copyCurrentEvent(p);
                    }
                }
                case FIELD_NAME -> {
                    String name = p.currentName();
                    if (depth == 2) {
                        secondary = name.equals("secondaryMetrics");
                        g.writeFieldName(name);
                    } else if (depth == 3 && secondary && !name.startsWith("\u00b7")) {
                        g.writeFieldName("\u00b7" + name);
                    } else {
                        g.writeFieldName(name);
                    }
                }
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> g.writeNumber(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                default -> g.copyCurrentEvent(p);
            }
        }
    }

    /** Jackson closes the stream it writes to; writers here never close what they are given. */
    private static final class NonClosing extends FilterOutputStream {
        NonClosing(OutputStream out) {
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
