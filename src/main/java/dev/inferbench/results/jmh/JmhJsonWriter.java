package dev.inferbench.results.jmh;

import java.io.OutputStream;
import java.io.FilterOutputStream;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static dev.inferbench.results.jmh.JmhJson.MAPPER;

/**
 * A run's own JMH files joined for JMH Visualizer ({@link #writeForVisualizer}), copied token by token. JMH JSON
 * itself is written by JMH's own writer only (the run folder's jmh-result.json); the reading side, and the quirks it
 * accepts, is {@link JmhJson}.
 */
public final class JmhJsonWriter {
    private JmhJsonWriter() {
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
