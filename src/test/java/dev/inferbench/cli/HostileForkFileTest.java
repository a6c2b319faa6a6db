package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import dev.inferbench.cell.Cell;
import dev.inferbench.results.RunLayout;
import dev.inferbench.run.Plan;
import dev.inferbench.run.RunStore;
import dev.inferbench.run.Shard;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Run folders come from elsewhere (CI shards, a colleague's run): a crafted fork file in one is refused by merge and
 * by --resume in one line with exit 2, unread (no class of the file is loaded or run), before anything runs or is
 * written.
 */
class HostileForkFileTest {
    private static final Cell CELL = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "avgt",
            Map.of("batchSize", "1"));

    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** A class outside JMH's results whose reading leaves a trace: what a gadget chain's first link does. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean read;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            read = true;
        }
    }

    @BeforeEach
    void reset() {
        Tripwire.read = false;
    }

    private static byte[] serialized(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream s = new ObjectOutputStream(bytes)) {
            s.writeObject(o);
        }
        return bytes.toByteArray();
    }

    /**
     * Arrays nested {@code depth} deep, written byte by byte (writing them with ObjectOutputStream would recurse as
     * deep): a plain ObjectInputStream recurses once per level and dies of a StackOverflowError.
     */
    private static byte[] nested(int depth) throws IOException {
        byte[] one = serialized(new Object[]{null});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(one, 0, one.length - 1); // all but the null element
        // TC_ARRAY, TC_REFERENCE to the class descriptor (the stream's first handle), length 1
        byte[] level = {0x75, 0x71, 0x00, 0x7e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
        for (int i = 1; i < depth; i++) {
            bytes.write(level);
        }
        bytes.write(0x70); // TC_NULL
        return bytes.toByteArray();
    }

    /** The classic first gadget: a set whose reading hashes a URL, which resolves its host. */
    private static Object urlInASet() throws IOException {
        Set<Object> set = new HashSet<>();
        set.add(new URL("http://tripwire.invalid/"));
        set.add(new Tripwire());
        return set;
    }

    private Path runWith(String name, String slice, byte[] forkFile, String fileName) throws Exception {
        Plan plan = Plan.of(List.of("-p", "batchSize=1"), null, 2, new Plan.Settings(0, "1 s", 1, "1 s"),
                Shard.parse(slice), List.of(CELL), List.of());
        Path run = dir.resolve(name);
        RunStore.create(run, plan);
        Path forks = Files.createDirectories(RunLayout.of(run).cellForks(CELL.id()));
        Files.write(forks.resolve(fileName), forkFile);
        return run;
    }

    private static Map<Path, Long> files(Path root) throws IOException {
        Map<Path, Long> all = new TreeMap<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) {
                all.put(root.relativize(p), Files.size(p) * 31 + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return all;
    }

    private int main(String... args) {
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true,
                StandardCharsets.UTF_8)).run(args);
    }

    private void assertRefusedInOneLine(int exit, String... expected) {
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(exit).as(lines.toString()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).startsWith("inferbench: ").contains(expected);
        assertThat(Tripwire.read).as("a class of the file was read").isFalse();
        out.reset();
        err.reset();
    }

    private static List<byte[]> hostile() throws IOException {
        return List.of(serialized(new Tripwire()), serialized(urlInASet()), nested(100_000));
    }

    /** The fixtures do what they claim when read as the old code read them, so the tests below can fail. */
    @Test
    void theFixturesTripWhenDeserialized() throws Exception {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialized(new Tripwire())))) {
            assertThat(in.readObject()).isInstanceOf(Tripwire.class);
        }
        assertThat(Tripwire.read).isTrue();
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(nested(3)))) {
            Object[] outer = (Object[]) in.readObject();
            assertThat(((Object[]) ((Object[]) outer[0])[0])[0]).isNull();
        }
    }

    @Test
    void mergeRefusesASerializedForkInOneLineAndWritesNothing() throws Exception {
        for (byte[] hostile : hostile()) {
            Path one = runWith("one-" + hostile.length, "1/2", hostile, "fork-1.ser");
            Path two = runWith("two-" + hostile.length, "2/2", serialized(new Tripwire()), "fork-2.ser");
            Path merged = dir.resolve("merged");
            assertRefusedInOneLine(main("merge", one.toString(), two.toString(), "--run-dir", merged.toString()),
                    "fork-1.ser is a fork result Java-serialized by an older inferbench, which is not read");
            assertThat(merged).doesNotExist();
        }
    }

    @Test
    void resumeRefusesASerializedForkInOneLineAndRunsNothing() throws Exception {
        for (byte[] hostile : hostile()) {
            Path run = runWith("run-" + hostile.length, "1/1", hostile, "fork-1.ser");
            Map<Path, Long> before = files(run);
            assertRefusedInOneLine(main("--resume", run.toString()), "fork-1.ser is a fork result Java-serialized",
                    "expected fork-N.record.json");
            assertThat(files(run)).isEqualTo(before);
        }
    }

    @Test
    void aRecordThatNamesAClassOrNestsDeepIsRefusedInOneLine() throws Exception {
        String[] records = {
            "{\"format\":1,\"params\":{\"@class\":\"java.lang.ProcessBuilder\",\"command\":[\"touch\",\"x\"]}}",
            "{\"format\":1,\"params\":null,\"forks\":[{\"iterations\":[{\"results\":[{\"kind\":\"java.lang.Runtime\"}]}]}]}",
            "{\"format\":1,\"forks\":" + "[".repeat(50_000) + "]".repeat(50_000) + "}",
            new String(serialized(new Tripwire()), StandardCharsets.ISO_8859_1),
        };
        for (int i = 0; i < records.length; i++) {
            byte[] bytes = records[i].getBytes(StandardCharsets.ISO_8859_1);
            Path run = runWith("record-" + i, "1/1", bytes, "fork-1.record.json");
            Map<Path, Long> before = files(run);
            assertRefusedInOneLine(main("--resume", run.toString()), "fork-1.record.json is not a fork record (",
                    "expected a file written by inferbench");
            assertThat(files(run)).isEqualTo(before);
            Path other = runWith("other-" + i, "2/2", new byte[0], "unrelated.txt");
            Path shard = runWith("shard-" + i, "1/2", bytes, "fork-1.record.json");
            assertRefusedInOneLine(main("merge", shard.toString(), other.toString(), "--run-dir",
                    dir.resolve("merged-" + i).toString()), "fork-1.record.json is not a fork record (");
            assertThat(dir.resolve("merged-" + i)).doesNotExist();
        }
    }
}
