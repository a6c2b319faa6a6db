package dev.inferbench.engine;

import dev.inferbench.AtomicFile;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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
    /**
     * The wall clock just before the session was created and just after: ORT's start must lie in between, which
     * shows that ORT's clock is the wall clock the samples are placed on (it is {@code std::chrono::system_clock}
     * with the usual C++ libraries; where it were not, a join would place every sample at the wrong kernel).
     */
    public static final String OPENING_NS = "opening.ns";
    public static final String OPENED_NS = "opened.ns";
    public static final String SESSION = "session-";

    private static final AtomicInteger SESSIONS = new AtomicInteger();

    private final Path dir;
    private final int index;
    private final long openingNs;
    private long openedNs;
    private long startNs;

    private ForkOrtProfile(Path dir, int index) {
        this.dir = dir;
        this.index = index;
        this.openingNs = wallNanos();
    }

    static long wallNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** The session is open: records when its profiler started ({@code getProfilingStartTimeInNs}). */
    void opened(OrtSession session) throws BenchException {
        this.openedNs = wallNanos();
        try {
            this.startNs = session.getProfilingStartTimeInNs();
        } catch (OrtException e) {
            throw new BenchException("cannot read ORT's profiling start time: " + OrtEngine.firstLine(e.getMessage()), e);
        }
    }

    /**
     * Ends the session's profiling (ORT writes the file then) and records it; call before the session closes. Best
     * effort: the launcher says that this fork's ORT profile is missing; the fork's timings stand.
     */
    void end(OrtSession session) {
        try {
            finish(session.endProfiling());
        } catch (OrtException | RuntimeException ignored) {
            // no session-N.properties: the launcher's "no operator frames" line names the missing file
        }
    }

    /** The next session's profile when the launcher asked for one, else null. */
    static ForkOrtProfile next() {
        String dir = System.getProperty(PROPERTY);
        if (dir == null || dir.isBlank()) {
            return null;
        }
        return new ForkOrtProfile(Path.of(dir), SESSIONS.incrementAndGet());
    }

    /**
     * The prefix ORT names the profile from ({@code enableProfiling}); ORT appends the time and {@code .json}. The
     * folder is made here: ORT opens the file when the session is created and writes nothing, silently, without it.
     */
    String prefix() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            System.err.println("[inferbench] cannot create " + dir + " for ORT's profile: " + e.getMessage());
        }
        return dir.resolve(SESSION + index).toString();
    }

    /**
     * Records where the profile went and when it started; called once, when the session is closed (ORT writes the
     * file when profiling ends). Best effort: a fork must not fail because its optional profile could not be kept,
     * and the launcher says so when the file is missing.
     */
    private void finish(String profileFile) {
        Properties p = new Properties();
        p.setProperty(FILE, Path.of(profileFile).getFileName().toString());
        p.setProperty(START_NS, Long.toString(startNs));
        p.setProperty(OPENING_NS, Long.toString(openingNs));
        p.setProperty(OPENED_NS, Long.toString(openedNs));
        try {
            AtomicFile.write(dir.resolve(SESSION + index + ".properties"),
                    out -> p.store(out, "ONNX Runtime session profile of this fork"));
        } catch (IOException e) {
            System.err.println("[inferbench] cannot record ORT's profile start in " + dir + ": " + e.getMessage());
        }
    }
}
