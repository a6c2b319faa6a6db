package dev.inferbench.engine;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ONNX Runtime's session profile recorded inside a benchmark fork, beside async-profiler's samples, so that the
 * launcher can put both on one clock (the operator frames of {@code --flame-events cpu,ops}). The launcher asks for
 * it with the system property {@value #PROPERTY} (a folder); every ORT session the fork opens then profiles into
 * {@code session-N_<time>.json} there, and when it closes writes {@code session-N.properties}: the profile's file
 * name and the instant ORT's profiler started, in ns since the epoch ({@code OrtSession.getProfilingStartTimeInNs},
 * the clock async-profiler's JFR timestamps convert to). ORT's profile holds each event's time only relative to
 * that start, so without it the two recordings cannot be joined. Never set for a timed fork unless asked: ORT then
 * records every kernel of every call.
 */
public final class ForkOrtProfile {
    /** The folder the launcher gives a fork through this system property. */
    public static final String PROPERTY = "inferbench.ortProfile";
    /** Keys of {@code session-N.properties}. */
    public static final String FILE = "profile";
    public static final String START_NS = "start.ns";
    public static final String SESSION = "session-";

    private static final AtomicInteger SESSIONS = new AtomicInteger();

    private final Path dir;
    private final int index;

    private ForkOrtProfile(Path dir, int index) {
        this.dir = dir;
        this.index = index;
    }

    /** The next session's profile when the launcher asked for one, else null. */
    static ForkOrtProfile next() {
        String dir = System.getProperty(PROPERTY);
        if (dir == null || dir.isBlank()) {
            return null;
        }
        return new ForkOrtProfile(Path.of(dir), SESSIONS.incrementAndGet());
    }

    /** The prefix ORT names the profile from ({@code enableProfiling}); ORT appends the time and {@code .json}. */
    String prefix() {
        return dir.resolve(SESSION + index).toString();
    }

    /**
     * Records where the profile went and when it started; called once, when the session is closed (ORT writes the
     * file when profiling ends). Best effort: a fork must not fail because its optional profile could not be kept,
     * and the launcher says so when the file is missing.
     */
    void finish(long startNs, String profileFile) {
        Properties p = new Properties();
        p.setProperty(FILE, Path.of(profileFile).getFileName().toString());
        p.setProperty(START_NS, Long.toString(startNs));
        try {
            Files.createDirectories(dir);
            Path tmp = dir.resolve(SESSION + index + ".properties.part");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                p.store(out, "ONNX Runtime session profile of this fork");
            }
            Files.move(tmp, dir.resolve(SESSION + index + ".properties"));
        } catch (IOException e) {
            System.err.println("[inferbench] cannot record ORT's profile start in " + dir + ": " + e.getMessage());
        }
    }
}
