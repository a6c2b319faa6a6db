package dev.inferbench.run;

import dev.inferbench.AtomicFile;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

/** JMH's own result writers, for the run folder's JSON and for a copy in any format JMH knows (-rf/-rff). */
public final class JmhResultWriter {
    private JmhResultWriter() {
    }

    /** Writes JMH's JSON through JMH's own writer; the stream stays open. */
    public static void writeJson(Collection<RunResult> results, OutputStream out) {
        write(ResultFormatType.JSON, results, out);
    }

    static String json(Collection<RunResult> results) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeJson(results, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Writes {@code results} in any of JMH's formats to {@code file}, whole (for -rff). */
    public static void writeAs(ResultFormatType type, Collection<RunResult> results, Path file) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        write(type, results, bytes);
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        AtomicFile.write(target, bytes.toByteArray());
    }

    private static void write(ResultFormatType type, Collection<RunResult> results, OutputStream out) {
        PrintStream ps = new PrintStream(out, false, StandardCharsets.UTF_8);
        ResultFormatFactory.getInstance(type, ps).writeOut(results);
        ps.flush();
    }
}
