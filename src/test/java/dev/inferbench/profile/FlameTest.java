package dev.inferbench.profile;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pieces of --flame that need no fork: library cache, option assembly, merging and diffing stacks. */
class FlameTest {
    @TempDir
    Path dir;

    @Test
    void libraryIsExtractedOnceReusedAndRepaired() throws Exception {
        String resource = NativeLibrary.platform() + "/libasyncProfiler.so";
        Path lib = NativeLibrary.extract(resource, dir);
        byte[] original = Files.readAllBytes(lib);
        assertThat(original.length).isGreaterThan(100_000);
        FileTime first = FileTime.fromMillis(1_000_000);
        Files.setLastModifiedTime(lib, first);
        assertThat(NativeLibrary.extract(resource, dir)).isEqualTo(lib);
        assertThat(Files.getLastModifiedTime(lib)).as("an intact copy is reused, not rewritten").isEqualTo(first);
        Files.write(lib, new byte[]{1, 2, 3});
        NativeLibrary.extract(resource, dir);
        assertThat(Files.readAllBytes(lib)).as("a damaged copy is replaced").isEqualTo(original);
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("libasyncProfiler.so");
        }
    }

    @Test
    void missingResourceAndUnwritableCacheAreOneLine() throws Exception {
        assertThatThrownBy(() -> NativeLibrary.extract("no/such/lib.so", dir)).isInstanceOf(BenchException.class)
                .hasMessage("the jar has no no/such/lib.so; expected it from the bundled library's jar");
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertThatThrownBy(() -> NativeLibrary.extract(NativeLibrary.platform() + "/libasyncProfiler.so", file.resolve("cache")))
                .hasMessageStartingWith("cannot keep ").hasMessageEndingWith("expected a writable cache folder (set XDG_CACHE_HOME)");
    }

    @Test
    void opsJoinsOperatorsIntoATimeGraphAndIsNoProfilerEvent() throws BenchException {
        FlameSettings s = FlameSettings.parse("cpu,alloc,ops");
        assertThat(s.ops()).isTrue();
        assertThat(s.events()).as("the converter draws cpu and alloc; ops only adds frames").containsExactly("cpu", "alloc");
        assertThat(s.jmhOptions(Path.of("/c/lib.so"), Path.of("/r/f"))).isEqualTo("libPath=/c/lib.so;output=jfr;dir=/r/f;event=cpu;alloc");
        assertThat(FlameSettings.parse(FlameSettings.DEFAULT).ops()).as("not unless asked").isFalse();
        assertThatThrownBy(() -> FlameSettings.parse("alloc,ops")).isInstanceOf(BenchException.class)
                .hasMessage("flame event 'ops' joins ONNX Runtime's operators into a time graph; expected a time event "
                        + "beside it, e.g. --flame-events cpu,ops");
        assertThat(OperatorFlame.forkArgument(Path.of("/r/flames/c/fork-2")))
                .isEqualTo("-Dinferbench.ortProfile=/r/flames/c/fork-2/ort");
    }

    @Test
    void eventsBecomeJmhOptions() throws BenchException {
        FlameSettings s = FlameSettings.parse(FlameSettings.DEFAULT);
        assertThat(s.events()).containsExactly("cpu", "alloc");
        assertThat(s.jmhOptions(Path.of("/c/lib.so"), Path.of("/r/f"))).isEqualTo("libPath=/c/lib.so;output=jfr;dir=/r/f;event=cpu;alloc");
        assertThat(FlameSettings.parse("wall,lock").jmhOptions(Path.of("/l"), Path.of("/d")))
                .isEqualTo("libPath=/l;output=jfr;dir=/d;event=wall;lock");
        assertThat(FlameSettings.parse("alloc").events()).containsExactly("alloc");
        assertThatThrownBy(() -> FlameSettings.parse("cpu,wall")).hasMessageContaining("cannot be recorded together");
        assertThatThrownBy(() -> FlameSettings.parse("cpu,cycles"))
                .hasMessage("unknown flame event 'cycles'; expected some of: cpu, wall, itimer, ctimer, alloc, lock, nativemem, ops (e.g. --flame-events cpu,alloc)");
        // native allocations: every malloc and free, through JMH's raw command (its own parser has no such option)
        FlameSettings nm = FlameSettings.parse("cpu,nativemem");
        assertThat(nm.events()).containsExactly("cpu", "nativemem");
        assertThat(nm.jmhOptions(Path.of("/l"), Path.of("/d"))).isEqualTo("libPath=/l;output=jfr;dir=/d;event=cpu;rawCommand=nativemem=0");
        assertThat(FlameSettings.parse("nativemem").events()).containsExactly("nativemem");
    }

    @Test
    void userProfilerRunsPerForkWithItsOwnOptionsAndOurLibrary() throws Exception {
        UserAsyncHook.Split split = UserAsyncHook.split(
                List.of("-p", "model=x", "-prof", "async:output=flamegraph;event=wall", "-prof", "gc"));
        assertThat(split.jmhArgs()).containsExactly("-p", "model=x", "-prof", "gc");
        assertThat(split.asyncOptions()).isEqualTo("output=flamegraph;event=wall");
        assertThat(UserAsyncHook.split(List.of("-prof", "async")).asyncOptions()).isEmpty();
        assertThat(UserAsyncHook.split(List.of("-prof", "gc")).asyncOptions()).isNull();

        Options base = new OptionsBuilder().build();
        Cell cell = new Cell("dev.inferbench.bench.InferenceBenchmark.infer", "sample", Map.of("model", "x"));
        ForkOptions fork3 = ForkOptions.of(UserAsyncHook.create(split.asyncOptions(), dir, base,
                new PrintStream(OutputStream.nullOutputStream())), cell, 3, dir);
        assertThat(fork3.profiler()).startsWith("output=flamegraph;event=wall;libPath=").contains("libasyncProfiler.so")
                .endsWith(";dir=" + dir.resolve("flames").resolve(cell.id()).resolve("fork-3"));
        assertThat(dir.resolve("flames").resolve(cell.id()).resolve("fork-3")).isDirectory();
        assertThat(fork3.jvmArgs()).anyMatch(a -> a.startsWith("-Donnxruntime.native.path="));

        // the user's own dir= and libPath= are kept, and each fork still gets a folder of its own under that dir
        ForkOptions own = ForkOptions.of(UserAsyncHook.create("libPath=/mine.so;dir=" + dir.resolve("mine"), dir, base,
                new PrintStream(OutputStream.nullOutputStream())), cell, 1, dir);
        assertThat(own.profiler()).isEqualTo("libPath=/mine.so;dir=" + dir.resolve("mine").resolve(cell.id()).resolve("fork-1"));
    }

    /** What a hook adds to one fork's JMH options: the async profiler's option string and the JVM arguments. */
    private record ForkOptions(String profiler, List<String> jvmArgs) {
        static ForkOptions of(UserAsyncHook hook, Cell cell, int fork, Path forkDir) throws BenchException {
            ChainedOptionsBuilder b = new OptionsBuilder();
            hook.beforeFork(cell, fork, forkDir, b);
            Options o = b.build();
            return new ForkOptions(o.getProfilers().get(0).getOpts(), List.copyOf(o.getJvmArgsAppend().orElse(List.of())));
        }
    }

    @Test
    void forksMergeByAddingStacksAndDiffColoursChanges() throws Exception {
        Path a = Files.writeString(dir.resolve("a.collapsed"), "main;infer;conv 60\nmain;infer;gemm 40\n");
        Path b = Files.writeString(dir.resolve("b.collapsed"), "main;infer;conv 30\nmain;infer;relu 10\n");
        ByteArrayOutputStream merged = new ByteArrayOutputStream();
        FlameGraphs.merge(List.of(a, b), "two forks", false, merged);
        String html = merged.toString(StandardCharsets.UTF_8);
        assertThat(html).contains("two forks").contains("conv").contains("gemm").contains("relu");
        // the converter's frame records (pinned converter 4.5): 140 samples at the root, conv 60 + 30 = 90
        assertThat(html).contains(",140)").contains(",90)").contains(",40)").contains(",10)");

        ByteArrayOutputStream diff = new ByteArrayOutputStream();
        FlameGraphs.diff(a, b, "b vs a", diff);
        assertThat(diff.toString(StandardCharsets.UTF_8)).contains("b vs a").contains("relu").contains("conv");
        assertThat(FlameHook.converterEvent("ctimer")).isEqualTo("cpu");
        assertThat(FlameHook.meaning("ctimer")).contains("forbids perf events");
    }
}
