package dev.inferbench.results;

import dev.inferbench.Json;
import java.util.TreeMap;
import java.util.HexFormat;
import java.security.NoSuchAlgorithmException;
import java.security.MessageDigest;
import dev.inferbench.BenchException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * environment.json: what a run ran on, captured when it starts, shown in every report. Absolute times do not carry
 * from one machine to another (an EPYC without AVX-512 ran ResNet-50 2.3x slower than a Xeon with it), so the CPU
 * model and its vector extensions come first. The commit is the one the jar was built from (git.properties,
 * written at build time), not whatever the working directory holds now.
 */
public final class Fingerprint {
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY);
    /** The cpuinfo flags that decide which kernels ORT and libtorch pick. */
    private static final List<String> VECTOR_FLAGS = List.of("sse4_2", "avx", "avx2", "fma", "f16c", "avx_vnni");

    private Fingerprint() {
    }

    /**
     * Writes environment.json into the run folder; a resumed run keeps the one its first start wrote (a report
     * that mixes machines is made from several run folders, not by resuming on another machine).
     *
     * @param models the model files the run measures, by model name: their sha256 tells two "resnet50" apart
     */
    public static Path write(Path runDir, Map<String, Path> models) throws IOException, BenchException {
        Path file = RunLayout.of(runDir).environment();
        if (Files.exists(file)) {
            sameAsAtStart(file, models);
        } else {
            Map<String, Object> env = capture();
            Map<String, String> digests = new TreeMap<>();
            for (Map.Entry<String, Path> m : models.entrySet()) {
                digests.put(m.getKey(), Files.isRegularFile(m.getValue()) ? sha256(m.getValue()) : "no file at start");
            }
            env.put("models.sha256", digests);
            JSON.writeValue(file.toFile(), env);
        }
        return file;
    }

    /**
     * A resumed run must measure what its first start measured: the same model files and the same build. Resuming
     * after pointing a model name at another file, or with a jar built from another commit, would pool two different
     * things in one cell (a resnet fork and an add-one fork at ±1126 %), so it is refused before the first fork.
     */
    private static void sameAsAtStart(Path file, Map<String, Path> models) throws IOException, BenchException {
        JsonNode env;
        try {
            env = JSON.readTree(file.toFile());
        } catch (IOException e) {
            return; // a damaged environment.json holds nothing to compare with; the report says it is not JSON
        }
        JsonNode started = env.path("models.sha256");
        for (Map.Entry<String, Path> m : models.entrySet()) {
            String then = started.path(m.getKey()).asText("");
            if (then.matches("[0-9a-f]{64}") && Files.isRegularFile(m.getValue())) {
                String now = sha256(m.getValue());
                if (!now.equals(then)) {
                    throw new BenchException("model '" + m.getKey() + "' is not the file this run started"
                            + " with: " + m.getValue() + " has sha256 " + now.substring(0, 12) + "..., the run measured "
                            + then.substring(0, 12) + "...; expected the same model file to resume (or start a new run)");
                }
            }
        }
        String thenCommit = env.path("git").path("commit").asText("unknown");
        String nowCommit = git().get("commit");
        if (!thenCommit.equals("unknown") && !nowCommit.equals("unknown") && !thenCommit.equals(nowCommit)) {
            throw new BenchException("this jar was built from commit " + nowCommit.substring(0, Math.min(12,
                    nowCommit.length())) + " but the run started with " + thenCommit.substring(0, Math.min(12,
                    thenCommit.length())) + "; expected the same build to resume (forks of two builds would be pooled)");
        }
    }

    /**
     * The engine versions a run folder's environment.json names, as that run's JVM loaded them (ONNX Runtime asked
     * at run time, DJL and libtorch from the files in the jar); empty for a folder without one, a JMH JSON file or a
     * damaged file.
     */
    public static Map<String, String> enginesOf(Path run) {
        Path file = RunLayout.of(run).environment();
        Map<String, String> v = new LinkedHashMap<>();
        if (!Files.isRegularFile(file)) {
            return v;
        }
        try {
            JSON.readTree(file.toFile()).path("engines").fields()
                    .forEachRemaining(e -> v.put(e.getKey(), e.getValue().asText()));
        } catch (IOException e) {
            return Map.of();
        }
        return v;
    }

    /** The CPU model an environment.json names; empty when the file has none or is not JSON. */
    public static Optional<String> cpuModel(Path file) {
        try {
            return Optional.ofNullable(JSON.readTree(file.toFile()).path("cpu").path("model").textValue());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                md.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public static Map<String, Object> capture() {
        Map<String, Object> env = new LinkedHashMap<>();
        Map<String, String> cpuinfo = cpuinfo();
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("model", cpuinfo.getOrDefault("model name", System.getProperty("os.arch")));
        cpu.put("flags", Arrays.stream(cpuinfo.getOrDefault("flags", "").split("\\s+"))
                .filter(f -> VECTOR_FLAGS.contains(f) || f.startsWith("avx512") || f.startsWith("amx")).sorted().toList());
        cpu.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("cpu", cpu);
        memoryMb().ifPresent(mb -> env.put("memory.total.mb", mb));
        env.put("os", Map.of("name", System.getProperty("os.name"), "kernel", System.getProperty("os.version"),
                "arch", System.getProperty("os.arch")));
        Map<String, Object> jdk = new LinkedHashMap<>();
        jdk.put("version", System.getProperty("java.version"));
        jdk.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        jdk.put("flags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        env.put("jdk", jdk);
        env.put("engines", engines());
        env.put("git", git());
        env.put("date", Instant.now().toString());
        return env;
    }

    /** The first processor's fields of /proc/cpuinfo; empty off Linux. */
    public static Map<String, String> cpuinfo() {
        Map<String, String> fields = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.isBlank() && !fields.isEmpty()) {
                    break;
                }
                int colon = line.indexOf(':');
                if (colon > 0) {
                    fields.putIfAbsent(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return fields;
    }

    private static Optional<Long> memoryMb() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024).findFirst();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The engine versions this jar bundles, read from the jar's own files ({@link BuildInfo}): the launcher never loads
     * an engine's native library, so a crash there cannot cost the run.
     */
    static Map<String, String> engines() {
        BuildInfo build = BuildInfo.ofThisJar();
        Map<String, String> v = new LinkedHashMap<>();
        v.put("onnxruntime", build.onnxruntime());
        v.put("djl", build.djl());
        v.put("pytorch", build.pytorch());
        return v;
    }

    /** Baked in by git-commit-id-maven-plugin at build time; "unknown" for a build outside git. */
    static Map<String, String> git() {
        BuildInfo build = BuildInfo.ofThisJar();
        Map<String, String> git = new LinkedHashMap<>();
        git.put("commit", build.commit());
        git.put("dirty", build.dirty());
        git.put("commit.time", BuildInfo.properties("/dev/inferbench/git.properties")
                .getProperty("git.commit.time", BuildInfo.UNKNOWN));
        return git;
    }
}
