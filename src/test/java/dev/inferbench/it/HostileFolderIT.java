package dev.inferbench.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crafted run folders, each received from elsewhere and handed to the command a user would run on it: every one is
 * refused in one line with exit 2, runs nothing (the program a plan names would leave a marker), and writes
 * nothing outside the folder (the work folder and a scratch HOME are the same file by file before and after).
 */
class HostileFolderIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;
    static Path good;
    static Path marker;
    static Path program;

    @BeforeAll
    static void aRealRun() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("origin"));
        Jar.Run r = Jar.run(cwd, "-p model=mlp-tiny -p batchSize=1 -f 2 -wi 0 -i 1 -r 100ms --run-dir run" + Jar.NO_SPARES);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        good = cwd.resolve("run");
        Files.deleteIfExists(good.resolve(".lock"));
        marker = work.resolve("ran");
        program = work.resolve("program.sh");
        Files.writeString(program, "#!/bin/sh\ntouch " + marker + "\n");
        program.toFile().setExecutable(true);
    }

    /** A case: a name, how to make it from a copy of the good run, and the command (with {@code DIR}). */
    private record Case(String name, Maker maker, String command) {
    }

    @FunctionalInterface
    private interface Maker {
        void make(Path dir) throws Exception;
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(d).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                Files.copy(f, to.resolve(from.relativize(f).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void planArgs(Path dir, String... more) throws IOException {
        ObjectNode plan = (ObjectNode) JSON.readTree(dir.resolve("plan.json").toFile());
        ArrayNode args = (ArrayNode) plan.get("args");
        for (String a : more) {
            args.add(a);
        }
        Files.writeString(dir.resolve("plan.json"), JSON.writeValueAsString(plan));
    }

    private static void planField(Path dir, String field, String value) throws IOException {
        ObjectNode plan = (ObjectNode) JSON.readTree(dir.resolve("plan.json").toFile());
        plan.put(field, value);
        Files.writeString(dir.resolve("plan.json"), JSON.writeValueAsString(plan));
    }

    private static void cellModel(Path dir, String model) throws IOException {
        ObjectNode plan = (ObjectNode) JSON.readTree(dir.resolve("plan.json").toFile());
        ((ObjectNode) plan.get("cells").get(0).get("params")).put("model", model);
        Files.writeString(dir.resolve("plan.json"), JSON.writeValueAsString(plan));
    }

    private static Path firstFork(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir.resolve("forks"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".record.json")).sorted().findFirst().orElseThrow();
        }
    }

    private static void link(Path at, Path to) throws IOException {
        if (Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> s = Files.walk(at)) {
                for (Path p : s.sorted((x, y) -> y.compareTo(x)).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.deleteIfExists(at);
        Files.createSymbolicLink(at, to);
    }

    private static List<Case> cases() {
        Path secret = work.resolve("secret.txt");
        List<Case> c = new ArrayList<>();
        c.add(new Case("plan names -jvm", d -> planArgs(d, "-jvm", program.toString()), "--resume DIR"));
        c.add(new Case("plan adds a java agent", d -> planArgs(d, "-jvmArgsAppend", "-javaagent:" + work.resolve("a.jar")),
                "--resume DIR"));
        c.add(new Case("plan adds a native agent", d -> planArgs(d, "-jvmArgs", "-agentpath:" + work.resolve("a.so")),
                "--resume DIR"));
        c.add(new Case("plan opens a debug port", d -> planArgs(d, "-jvmArgsPrepend",
                "-agentlib:jdwp=transport=dt_socket,server=y,address=5005"), "--resume DIR"));
        c.add(new Case("plan runs a command on a crash", d -> planArgs(d, "-jvmArgsAppend", "-XX:OnError=" + program),
                "--resume DIR"));
        c.add(new Case("plan loads ORT from a path", d -> planArgs(d, "-jvmArgsAppend",
                "-Donnxruntime.native.onnxruntime.path=" + work.resolve("evil.so")), "--resume DIR"));
        c.add(new Case("plan logs to a file elsewhere", d -> planArgs(d, "-jvmArgsAppend", "-Xlog:gc:file=" + secret),
                "--resume DIR"));
        c.add(new Case("plan's profiler library", d -> planArgs(d, "-prof", "async:libPath=" + work.resolve("x.so")),
                "--resume DIR"));
        c.add(new Case("plan's profiler class", d -> planArgs(d, "-prof", "com.example.Evil"), "--resume DIR"));
        c.add(new Case("plan writes JMH's log elsewhere", d -> planArgs(d, "-o", secret.toString()), "--resume DIR"));
        c.add(new Case("plan writes a result elsewhere", d -> planArgs(d, "-rff", secret.toString()), "--resume DIR"));
        c.add(new Case("plan reads another properties file", d -> planField(d, "config", work.resolve("x.properties")
                .toString()), "--resume DIR"));
        c.add(new Case("plan names a model outside", d -> cellModel(d, work.resolve("elsewhere.onnx").toString()),
                "--resume DIR"));
        c.add(new Case("plan.json is not JSON", d -> Files.writeString(d.resolve("plan.json"), "{\"format\": 1, ["),
                "--resume DIR"));
        c.add(new Case("plan.json of another format", d -> planField(d, "format", "99"), "--resume DIR"));
        c.add(new Case("plan.json is a link", d -> {
            Files.copy(d.resolve("plan.json"), work.resolve("plan-copy.json"), StandardCopyOption.REPLACE_EXISTING);
            link(d.resolve("plan.json"), work.resolve("plan-copy.json"));
        }, "--resume DIR"));
        c.add(new Case("fork record is a link (resume)", d -> link(firstFork(d), secret), "--resume DIR"));
        c.add(new Case("fork record is a link (merge)", d -> link(firstFork(d), secret), "merge DIR --run-dir "
                + work.resolve("merged-out")));
        c.add(new Case("forks folder is a link", d -> {
            Path forks = d.resolve("forks");
            copy(forks, work.resolve("forks-copy-" + System.nanoTime()));
            try (Stream<Path> s = Files.walk(forks)) {
                s.sorted((x, y) -> y.compareTo(x)).forEach(p -> p.toFile().delete());
            }
            Files.createSymbolicLink(forks, work.resolve("elsewhere-forks"));
        }, "merge DIR --run-dir " + work.resolve("merged-out2")));
        c.add(new Case("fork record is not JSON", d -> Files.writeString(firstFork(d), "\u0000\u0001garbage"),
                "--resume DIR"));
        c.add(new Case("fork record with an absurd fork number", d -> {
            Path f = firstFork(d);
            Files.move(f, f.resolveSibling("fork-99999999999999999999999.record.json"));
        }, "--resume DIR"));
        c.add(new Case("result is a link (compare)", d -> link(d.resolve("jmh-result.json"), secret), "compare DIR DIR"));
        c.add(new Case("report folder is a link (report)", d -> {
            Files.createDirectories(work.resolve("elsewhere"));
            link(d.resolve("report"), work.resolve("elsewhere"));
        }, "report DIR"));
        c.add(new Case("summary is a link (report)", d -> link(d.resolve("summary.txt"), secret), "report DIR"));
        c.add(new Case("a pipe in the folder", d -> new ProcessBuilder("mkfifo", d.resolve("pipe").toString())
                .start().waitFor(), "report DIR"));
        c.add(new Case("a link in a history folder", d -> link(d.resolve("jmh-result.json"), secret), "history DIR"));
        c.add(new Case("lock file is a link", d -> link(d.resolve(".lock"), secret), "--resume DIR"));
        c.add(new Case("flame diff of a folder with a link", d -> link(d.resolve("summary.txt"), secret),
                "flame diff DIR DIR"));
        return c;
    }

    /** Every regular file under {@code root} but {@code except}, with its size and modification time. */
    private static Map<String, String> snapshot(Path root, Path except) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(p -> !p.startsWith(except)).toList()) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    files.put(root.relativize(p).toString(), Files.size(p) + " " + Files.getLastModifiedTime(p));
                }
            }
        }
        return files;
    }

    @Test
    void everyCraftedFolderIsRefusedInOneLine() throws Exception {
        Files.writeString(work.resolve("secret.txt"), "not to be read\n");
        Path home = Files.createDirectory(work.resolve("home"));
        Map<String, String> table = new LinkedHashMap<>();
        int n = 0;
        for (Case k : cases()) {
            Path dir = work.resolve("case-" + (++n));
            copy(good, dir);
            k.maker().make(dir);
            Map<String, String> before = snapshot(work, dir);
            ProcessBuilder b = Jar.command(work, List.of(), List.of(k.command().replace("DIR", dir.toString())
                    .split(" ")));
            b.environment().put("HOME", home.toString());
            long t0 = System.nanoTime();
            Jar.Run r = Jar.run(b, Files.createDirectories(work.resolve("logs")));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            String lines = r.err().strip();
            table.put(k.name(), "exit " + r.code() + ", " + ms + " ms: " + lines);
            assertThat(r.code()).as(k.name() + ": " + r.out() + r.err()).isEqualTo(2);
            assertThat(lines.lines().count()).as(k.name() + ": " + lines).isEqualTo(1);
            assertThat(lines).as(k.name()).startsWith("inferbench: ");
            assertThat(marker).as(k.name() + ": the plan's program ran").doesNotExist();
            assertThat(snapshot(work, dir)).as(k.name() + ": written outside the folder").isEqualTo(before);
            try (Stream<Path> s = Files.list(home)) {
                assertThat(s.toList()).as(k.name() + ": written under HOME").isEmpty();
            }
        }
        assertThat(table).hasSizeGreaterThanOrEqualTo(25);
        Path out = Path.of(System.getProperty("hostile.table", "target/hostile-folders.txt"));
        StringBuilder sb = new StringBuilder();
        table.forEach((name, line) -> sb.append(name).append(": ").append(line).append('\n'));
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
    }

    /** A resume of a folder whose run still runs is refused, and the run ends with each fork measured once. */
    @Test
    void aFolderInUseIsRefused() throws Exception {
        Path cwd = Files.createDirectory(work.resolve("busy"));
        // three forks and the report after them: the run holds its folder for seconds after its plan is written,
        // longer than a second launcher takes to start and look
        Process first = Jar.command(cwd, "-p model=mlp-tiny -p batchSize=1 -f 3 -wi 0 -i 1 -r 200ms" + Jar.NO_SPARES
                + " --run-dir run")
                .redirectErrorStream(true).redirectOutput(cwd.resolve("first.txt").toFile()).start();
        Jar.awaitWhileAlive(first, () -> Files.exists(cwd.resolve("run/plan.json")));
        Jar.Run second = Jar.run(cwd, "--resume run");
        assertThat(second.code()).as(second.out() + second.err()).isEqualTo(2);
        assertThat(second.err().strip()).startsWith("inferbench: run folder run is in use by another inferbench"
                + " process (pid " + first.pid() + ")");
        assertThat(first.waitFor(3, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
        assertThat(first.exitValue()).as(Files.readString(cwd.resolve("first.txt"))).isZero();
        try (Stream<Path> s = Files.walk(cwd.resolve("run/forks"))) {
            assertThat(s.filter(p -> p.getFileName().toString().endsWith(".record.json")).count()).isEqualTo(3);
        }
        Jar.Run after = Jar.run(cwd, "--resume run");
        assertThat(after.code()).as(after.out() + after.err()).isZero();
        assertThat(after.out()).contains("3 forks already landed");
    }
}
