package dev.inferbench.commits;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A comparison of commits run by this program's own jar in a child JVM: {@code java -jar <this jar> compare-commits
 * ARGS}, with the java this JVM runs on, its output passed through as it comes. The jar, not a script, is the one
 * program, so the bisect and the power ledger use the comparison the user would run by hand. ONNX Runtime's
 * telemetry is off in the child from its start, so it need not start itself again to turn it off.
 */
public final class ThisJarComparison implements CommitComparison {
    private final Path jar;

    private ThisJarComparison(Path jar) {
        this.jar = jar;
    }

    /**
     * The comparison of the jar this class was loaded from; refused, before anything is built or run, when it was
     * loaded from a folder of classes (a test, an IDE), whose {@code compare-commits} no child JVM could start.
     */
    public static ThisJarComparison locate() throws BenchException {
        Path from;
        try {
            from = Path.of(ThisJarComparison.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new BenchException("cannot locate the jar this program runs from (" + e.getMessage() + ")", e);
        }
        if (!Files.isRegularFile(from)) {
            throw new BenchException("each comparison runs this program's jar, but it runs from " + from + ", not a"
                    + " jar; build it first: mvn -q package -DskipTests, then java -jar target/benchmarks.jar");
        }
        return new ThisJarComparison(from);
    }

    public Path jar() {
        return jar;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "compare-commits"));
        cmd.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("ORT_DISABLE_TELEMETRY", "1");
        try {
            Process p = builder.start();
            Thread errors = new Thread(() -> copy(p.getErrorStream(), err), "compare-commits-stderr");
            errors.start();
            copy(p.getInputStream(), out);
            int code = p.waitFor();
            errors.join();
            return code;
        } catch (IOException e) {
            throw new BenchException("cannot start " + String.join(" ", cmd.subList(0, 4)) + " (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while compare-commits ran", e);
        }
    }

    private static void copy(InputStream from, OutputStream to) {
        try (from) {
            from.transferTo(to);
            to.flush();
        } catch (IOException e) {
            // a pipe that broke loses the rest of the child's output, not its ending: the exit code still says it
        }
    }
}
