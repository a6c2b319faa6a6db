package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import dev.inferbench.run.Pacer;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

/**
 * One side's launcher for the whole comparison ({@code --paced}, {@link Pacer}): it runs one fork when told to and
 * then waits, so a fork costs its own JVM only, not a launcher JVM, the run's planning and a report as well. What it
 * prints goes to the side's log line by line, read by a thread of its own; the comparison waits on its "ready" lines
 * with blocking reads, costing no CPU.
 *
 * <p>The exchange has versions: 1 a go line per fork, the result written after each fork; 2 adds
 * {@value Pacer#WRITE}; 3 announces itself; 4 adds {@value Pacer#PASS}. A launcher that announced nothing is a build
 * from before version 3: whether its Pacer knows {@value Pacer#WRITE} tells 2 from 1. Each side is driven its own way.
 */
final class PacedLauncher implements AutoCloseable {
    private static final Pattern PROTOCOL = Pattern.compile("\\[inferbench\\] paced: protocol ([0-9]+)");
    private static final String PACER_CLASS = "dev/inferbench/run/Pacer.class";
    private static final Object END = new Object();

    final String side;
    private final Process process;
    private final Writer log;
    private final OutputStream input;
    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private volatile int protocol;
    private boolean ended;
    private Integer status;

    private PacedLauncher(String side, Process process, Writer log) {
        this.side = side;
        this.process = process;
        this.log = log;
        this.input = process.getOutputStream();
        Thread reader = new Thread(this::read, "paced-" + side);
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code cmd} in {@code dir}, its output (stderr too) appended to {@code log}. */
    static PacedLauncher start(String side, List<String> cmd, Path dir, Path log) throws Stop {
        try {
            Writer w = new java.io.BufferedWriter(new java.io.OutputStreamWriter(AtomicFile.log(log, true),
                    StandardCharsets.UTF_8));
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            return new PacedLauncher(side, p, w);
        } catch (IOException e) {
            throw Stop.failure("cannot start the " + side + " side's launcher: " + e.getMessage());
        }
    }

    private void read() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                logLine(line);
                Matcher m = PROTOCOL.matcher(line);
                if (m.matches()) {
                    protocol = Integer.parseInt(m.group(1));
                } else if (line.equals(Pacer.READY)) {
                    events.add(Pacer.READY);
                }
            }
        } catch (IOException | NumberFormatException e) {
            logLine("[compare-commits] reading the launcher's output ended: " + e.getMessage());
        } finally {
            events.add(END);
        }
    }

    synchronized void logLine(String line) {
        try {
            log.write(line);
            log.write('\n');
            log.flush();
        } catch (IOException e) {
            // a log that cannot be written loses lines, not the comparison
        }
    }

    /** Waits until the launcher says it is ready; false at its end (its plan done, or it failed). */
    boolean untilReady() throws Stop {
        if (ended) {
            return false;
        }
        try {
            if (events.take() == END) {
                ended = true;
                return false;
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Stop.failure("interrupted while waiting for the " + side + " side's launcher");
        }
    }

    /**
     * After its first ready: the version of the exchange it speaks, announced or read from its jar; one this driver
     * does not know is refused instead of being run out of step.
     */
    int handshake(Path jar) throws Stop {
        if (protocol == 0) {
            protocol = knowsWrite(jar) ? 2 : 1;
        }
        if (protocol > Pacer.VERSION) {
            throw Stop.badInput("the " + side + " side's launcher speaks paced protocol " + protocol + "; this jar"
                    + " knows 1 to " + Pacer.VERSION + ": run the newer side's compare-commits");
        }
        logLine("paced protocol " + protocol);
        return protocol;
    }

    private static boolean knowsWrite(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            var entry = zip.getEntry(PACER_CLASS);
            if (entry == null) {
                return false;
            }
            byte[] bytes = zip.getInputStream(entry).readAllBytes();
            return new String(bytes, StandardCharsets.ISO_8859_1).contains(Pacer.WRITE);
        } catch (IOException e) {
            return false;
        }
    }

    int protocol() {
        return protocol;
    }

    boolean ended() {
        return ended;
    }

    /** Sends one line; false when the launcher has ended (its input closed). */
    boolean send(String line) {
        if (ended) {
            return false;
        }
        try {
            input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A go, and the wait for its ready: false when the launcher ended instead. */
    boolean exchange(String line) throws Stop {
        return send(line) && untilReady();
    }

    long pid() {
        return process.pid();
    }

    /** Closes its input: it writes its summary and report and ends. */
    void closeInput() {
        try {
            input.close();
        } catch (IOException e) {
            // an input already closed by the launcher's end
        }
    }

    /** {@link #closeInput}, then waits for its end; its exit status. */
    int finish() throws Stop {
        closeInput();
        while (untilReady()) {
            // a launcher past its plan may say ready once more before it sees its input's end
        }
        return reap();
    }

    /** Its exit status, once it has ended. */
    int reap() throws Stop {
        if (status == null) {
            try {
                status = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw Stop.failure("interrupted while waiting for the " + side + " side's launcher to end");
            }
        }
        return status;
    }

    /** Ends it if it still runs, and waits: a launcher ends before its worktree goes. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
        }
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            try {
                log.close();
            } catch (IOException e) {
                // nothing left to say
            }
        }
    }
}
