package dev.inferbench.calibration;

import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The two sides of {@link TpotCrosscheck}, each a fresh process per round: the harness (this jar's
 * GenerationBenchmark, one fork, warm-up and measurement in 1 s iterations, so that what runs between iterations is
 * compiled before the measured ones) and the loop outside Java. Against {@code c}, the loop is compiled with
 * {@code cc} into target/c-ort/ beside the libonnxruntime.so taken out of this jar; against {@code node}, the first
 * run installs onnxruntime-node at the version the pom bundles into target/node-ort/ with
 * {@code ONNXRUNTIME_NODE_INSTALL=skip} (the package carries its CPU library; its install script fetches nothing):
 * the one step that reaches a registry, at build time. Later runs reuse both and reach nothing.
 */
final class TpotSides {
    private static final String LIB = "ai/onnxruntime/native/linux-x64/libonnxruntime.so";
    private static final Pattern ORT_VERSION = Pattern.compile("<onnxruntime.version>(.*)</onnxruntime.version>");

    private final Path root;
    private final Path jar;
    private final TpotCrosscheck.Settings s;
    private final Path work;
    private final Child child;
    private final PrintStream say;

    TpotSides(Path root, Path jar, TpotCrosscheck.Settings s, Path work, Child child, PrintStream say) {
        this.root = root;
        this.jar = jar;
        this.s = s;
        this.work = work;
        this.child = child;
        this.say = say;
    }

    /** The loop outside Java, built or installed first where it is not yet. */
    TpotCrosscheck.Side other() throws BenchException {
        String version = ortVersion();
        List<String> tail = List.of(s.model().toString(), Integer.toString(s.prompt()), Integer.toString(s.output()),
                Integer.toString(s.threads()), Integer.toString(s.warmup()), Integer.toString(s.measure()));
        List<String> command;
        if (s.against().equals("c")) {
            Path dir = root.resolve(Path.of("target", "c-ort"));
            Path lib = dir.resolve("libonnxruntime.so");
            Path loop = dir.resolve("loop");
            Path source = root.resolve(Path.of("tools", "tpot-crosscheck", "loop.c"));
            try {
                Files.createDirectories(dir);
                if (!Files.exists(lib) || Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(lib)) > 0) {
                    extractLib(lib);
                }
                if (!Files.exists(loop)
                        || Files.getLastModifiedTime(source).compareTo(Files.getLastModifiedTime(loop)) > 0) {
                    must(List.of("cc", "-O2", "-o", loop.toString(), source.toString(), "-ldl", "-lm"), "cc");
                }
            } catch (IOException e) {
                throw new BenchException("cannot prepare " + dir + " (" + e.getMessage() + ")", e);
            }
            command = new java.util.ArrayList<>(List.of(loop.toString(), lib.toString()));
        } else {
            Path prefix = root.resolve(Path.of("target", "node-ort"));
            Path installed = prefix.resolve(Path.of("node_modules", "onnxruntime-node", "package.json"));
            if (!readOr(installed).contains("\"version\": \"" + version + "\"")) {
                say.println("[tpot-crosscheck] installing onnxruntime-node@" + version + " into " + prefix
                        + " (build-time step; no download after it)");
                must(List.of("env", "ONNXRUNTIME_NODE_INSTALL=skip", "npm", "install", "--prefix", prefix.toString(),
                        "--no-save", "--no-audit", "--no-fund", "--loglevel=error", "onnxruntime-node@" + version),
                        "npm");
            }
            command = new java.util.ArrayList<>(List.of("node",
                    root.resolve(Path.of("tools", "tpot-crosscheck", "loop.js")).toString(),
                    prefix.resolve("node_modules").toString()));
        }
        command.addAll(tail);
        say.println("[tpot-crosscheck] " + s.model() + ": batch 1, prompt " + s.prompt() + ", output " + s.output()
                + ", threads " + s.threads() + "; " + s.rounds() + " rounds of " + s.warmup() + "s warm-up + "
                + s.measure() + "s measured per side; ORT " + version + " (Java binding in the harness; "
                + (s.against().equals("c") ? "C API" : "Node.js binding") + "); " + Runtime.getRuntime()
                .availableProcessors() + " cores, java " + System.getProperty("java.version"));
        List<String> cmd = List.copyOf(command);
        return round -> {
            Path json = work.resolve(s.against() + "-" + round + ".json");
            Path log = work.resolve(s.against() + "-" + round + ".log");
            // the loop prints its JSON on stdout and its notes on stderr: a shell keeps them apart
            int code = child.run(withArgs(cmd, log, json), root, work.resolve("runner.log"));
            if (code != 0) {
                throw new BenchException(s.against() + " round " + round + " ended with exit " + code + "; see " + log);
            }
            return TpotCrosscheck.loopFigures(json);
        };
    }

    /** {@code cmd} with its stdout to {@code json} and its stderr to {@code log}, the paths passed as arguments. */
    static List<String> withArgs(List<String> cmd, Path log, Path json) {
        List<String> all = new java.util.ArrayList<>(List.of("sh", "-c",
                "j=$1; l=$2; shift 2; exec \"$@\" >\"$j\" 2>\"$l\"", "sh", json.toString(), log.toString()));
        all.addAll(cmd);
        return all;
    }

    /** GenerationBenchmark in one fork, its run folder in the work folder. */
    TpotCrosscheck.Side harness() {
        return round -> {
            Path run = work.resolve("java-" + round);
            Path log = work.resolve("java-" + round + ".log");
            int code = child.run(List.of(CalibrationTable.javaBinary(), "-jar", jar.toString(), "GenerationBenchmark",
                    "-p", "model=" + s.model(), "-p", "batchSize=1", "-p", "promptLen=" + s.prompt(), "-p",
                    "outputLen=" + s.output(), "-p", "threads=" + s.threads(), "-f", "1", "-wi",
                    Integer.toString(s.warmup()), "-w", "1s", "-i", Integer.toString(s.measure()), "-r", "1s",
                    "--run-dir", run.toString()), root, log);
            if (code != 0) {
                throw new BenchException("the harness's round " + round + " ended with exit " + code + "; see " + log);
            }
            return TpotCrosscheck.harnessFigures(run.resolve(RunLayout.RESULT));
        };
    }

    private String ortVersion() throws BenchException {
        Matcher m = ORT_VERSION.matcher(readOr(root.resolve("pom.xml")));
        if (!m.find()) {
            throw new BenchException("no <onnxruntime.version> in " + root.resolve("pom.xml") + "; run from the"
                    + " checkout's root");
        }
        return m.group(1).strip();
    }

    private void extractLib(Path lib) throws BenchException, IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry e = zip.getEntry(LIB);
            if (e == null) {
                throw new BenchException("no " + LIB + " in " + jar + "; expected ONNX Runtime's jar inside");
            }
            Path tmp = lib.resolveSibling(lib.getFileName() + ".tmp");
            try (InputStream in = zip.getInputStream(e)) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(tmp, lib, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private void must(List<String> command, String what) throws BenchException {
        Path log = work.resolve(what + ".log");
        int code = child.run(command, root, log);
        if (code != 0) {
            throw new BenchException(what + " ended with exit " + code + "; see " + log);
        }
    }

    private static String readOr(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
