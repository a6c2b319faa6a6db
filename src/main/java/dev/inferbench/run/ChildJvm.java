package dev.inferbench.run;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.config.BenchConfig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A step that calls native engine code (an operator or op-profile pass, a data check, an int8 calibration) in a JVM
 * of its own, as JMH runs a fork: a crash of ONNX Runtime there (a SIGBUS in a session's creation ended a 60-fork
 * comparison once, in the launcher) costs that step, one line that names it, and a crash log in the run folder;
 * the launcher and its run go on. The child is the same jar and class path, started with the launcher's own JVM
 * options; it reads its {@link Request} from stdin and its lines are copied to the launcher's console. The steps
 * themselves are named, not given as code, and {@code cli.PassMain} runs them: this class knows none of them.
 */
public final class ChildJvm {
    /** The child's entry point. */
    public static final String MAIN = "dev.inferbench.cli.PassMain";
    /** The child's exit code for a refusal (a {@link BenchException}: its last line is the message). */
    public static final int REFUSED = 2;
    private static final ObjectMapper JSON = Json.mapper();
    private static final int TAIL = 60;

    /**
     * What the child runs.
     *
     * @param step   the step's name ({@code cli.PassMain} knows them)
     * @param cells  the cells it runs on
     * @param config the properties file the run read, absolute; null for the copy inside the jar
     * @param dir    the folder it writes into
     */
    public record Request(String step, List<Cell> cells, String config, String dir) {
        /** The step over {@code cells} with the run's own properties file (the jar's copy when it has none). */
        public static Request of(String step, List<Cell> cells, BenchConfig config, Path dir) {
            return new Request(step, cells, config.file().map(p -> p.toAbsolutePath().toString()).orElse(null),
                    dir.toString());
        }
    }

    private ChildJvm() {
    }

    /** The request as the child reads it. */
    public static Request read(java.io.InputStream in) throws IOException {
        return JSON.readValue(in, Request.class);
    }

    /**
     * A step before the first fork (a check, a variant), whose crash leaves nothing to go on with: one line, with the
     * crash log in the temp folder, as there is no run folder yet.
     *
     * @param expected what the input must be for the step to end, for the refusal's line
     */
    public static void mustEnd(Request request, String what, String expected, PrintStream out) throws BenchException {
        if (!run(request, what, Path.of(System.getProperty("java.io.tmpdir")), out)) {
            throw new BenchException(what + " crashed ONNX Runtime (the line above says where); expected " + expected);
        }
    }

    /**
     * Runs {@code request} in a child JVM and waits for it.
     *
     * @param what     the step as a line names it ("the operator pass of pair 3")
     * @param crashDir where the child's JVM crash log goes
     * @return true when the step ended, false when its JVM crashed or was killed (after one line on {@code out})
     * @throws BenchException the child's refusal, as its one line said it
     */
    public static boolean run(Request request, String what, Path crashDir, PrintStream out) throws BenchException {
        return run(MAIN, request, what, crashDir, out);
    }

    /** {@link #run(Request, String, Path, PrintStream)} with another entry point (a test's). */
    static boolean run(String main, Request request, String what, Path crashDir, PrintStream out)
            throws BenchException {
        Deque<String> tail = new ArrayDeque<>();
        int code;
        List<Path> logsBefore;
        try {
            Files.createDirectories(crashDir);
            logsBefore = crashLogs(crashDir);
            Process p = new ProcessBuilder(command(main, crashDir)).redirectErrorStream(true).start();
            try (OutputStream stdin = p.getOutputStream()) {
                JSON.writeValue(stdin, request);
            }
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    out.println(line);
                    tail.addLast(line);
                    if (tail.size() > TAIL) {
                        tail.removeFirst();
                    }
                }
            }
            code = p.waitFor();
        } catch (IOException e) {
            throw new BenchException("cannot start a JVM for " + what + ": " + OneLine.of(e)
                    + "; expected the java of this JVM to run", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while " + what + " ran", e);
        }
        if (code == 0) {
            return true;
        }
        List<String> lines = new ArrayList<>(tail);
        if (code == REFUSED) {
            String last = lines.stream().filter(l -> l.startsWith("inferbench: ")).reduce((a, b) -> b).orElse("");
            throw new BenchException(last.isEmpty() ? what + " was refused (exit 2)" : last.substring(12));
        }
        List<Path> added = crashLogs(crashDir);
        added.removeAll(logsBefore);
        out.println("inferbench: " + what + " crashed with exit " + code + FailureRecord.crashSite(lines)
                + "; the run goes on without it" + (added.isEmpty() ? "" : "; its crash log is " + added.get(0)));
        return false;
    }

    private static List<Path> crashLogs(Path crashDir) {
        try (var s = Files.list(crashDir)) {
            return new ArrayList<>(s.filter(f -> f.getFileName().toString().matches("hs_err_pid\\d+\\.log")).toList());
        } catch (IOException e) {
            return new ArrayList<>();
        }
    }

    /** This JVM's java, its options (a crash log file of its own instead of the launcher's, no debugger port). */
    static List<String> command(String main, Path crashDir) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-XX:ErrorFile=") && !a.startsWith("-agentlib:jdwp") && !a.startsWith("-Xrunjdwp")) {
                cmd.add(a);
            }
        }
        cmd.add("-XX:ErrorFile=" + crashDir.toAbsolutePath().resolve("hs_err_pid%p.log"));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main);
        return cmd;
    }
}
