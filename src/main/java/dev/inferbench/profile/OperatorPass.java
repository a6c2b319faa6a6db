package dev.inferbench.profile;

import dev.inferbench.Json;
import dev.inferbench.AtomicFile;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.Cell;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.OrtProfiledRun;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.model.stats.OnnxSummary;
import dev.inferbench.variant.Variants;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One profiled pass of each {@code ort} or {@code djl-ort} inference cell of a run, asked for between the timed forks
 * of an interleaved comparison (compare-commits), so that each side's operator times are taken pair by pair
 * as its timed forks are: the cell's model once more with ONNX Runtime's session profiling on, never in a timed fork,
 * in a JVM of its own ({@code run.ChildJvm}), so that a crash of the engine costs the pass only.
 * A pass warms up for at least {@value #WARMUP_CALLS} calls and half its time (the pass's JVM runs the engine's
 * Java code seldom, so it may not be compiled yet), then measures for about {@value #PASS_MS} ms (at least
 * {@value #MIN_CALLS} calls, at most {@value #MAX_CALLS}), and keeps, per cell, one small file: the Java-side time
 * of a call and its operators by layer and module ({@link LayerTimes}); ORT's own profile is read once
 * ({@link OrtProfile}) and dropped. Over the same measured calls async-profiler samples every thread of the JVM
 * ({@link FrameSampler}): the samples by frame group and the JVM's heap, GC and JIT counters go into the same file
 * ({@link PassFrames}), the collapsed stacks beside it. {@code compare} sets the passes of two runs side by side
 * pair by pair. A {@code djl-ort} cell's pass opens the model through DJL and calls it through DJL's Predictor, as
 * its forks do, with ORT's profiling switched on by DJL's own option; DJL's engine, which must make ONNX Runtime's
 * environment in a JVM rather than find it made, is started first in the pass's JVM ({@code EngineKind.startFirst}).
 *
 * <p>What a pass cannot see: it runs with the launcher's JVM options, so a change that only the forks' JVM arguments
 * make ({@code -jvmArgsAppend}) is not in it; the side's build and the cell's parameters are.
 */
public final class OperatorPass {
    static final int WARMUP_CALLS = 10;
    static final int MIN_CALLS = 20;
    static final int MAX_CALLS = 2000;
    static final int PASS_MS = 250;
    /** The file of one cell's pass: {@code <pass folder>/<cell-id>.json}. */
    public static final String SUFFIX = ".json";
    /** The step's name for {@code cli.PassMain}, which runs it in a JVM of its own. */
    public static final String STEP = "operator";
    private static final ObjectMapper JSON = Json.mapper(Json.Option.LENIENT);

    /**
     * One cell's pass.
     *
     * @param benchmark the cell's benchmark method
     * @param params    the cell's parameters, as its JMH result names them
     * @param calls     measured calls
     * @param callMs    their mean time from Java (around the engine's run), ms
     * @param layers    ORT's nodes over the measured calls, by layer and module; {@code kernelMs} is the operators'
     *                  time per call, so {@code callMs - kernelMs} is the time outside the operators
     * @param frames    the cpu samples by frame group and the JVM's counters over the same calls; null where the
     *                  profiler could not run
     */
    public record Profiled(String benchmark, Map<String, String> params, int calls, double callMs, LayerTimes layers,
                           PassFrames frames) {
        /** A pass without cpu samples (a build before them, or a machine where the profiler does not load). */
        public Profiled(String benchmark, Map<String, String> params, int calls, double callMs, LayerTimes layers) {
            this(benchmark, params, calls, callMs, layers, null);
        }
    }

    private OperatorPass() {
    }

    /** Whether a cell gets a pass: an inference cell of engine {@code ort} or {@code djl-ort}. */
    public static boolean profiles(Cell cell, BenchConfig config) throws BenchException {
        if (!BenchmarkNames.isMethod(cell.benchmark(), BenchmarkNames.INFERENCE_INFER)
                || !CellSpec.isModelCell(cell.params())) {
            return false;
        }
        EngineKind engine = CellSpec.of(cell.params(), config).engine();
        return engine == EngineKind.ORT || engine == EngineKind.DJL_ORT;
    }

    /**
     * Profiles each cell that gets a pass into {@code dir}; one line each on {@code out}. A cell whose pass fails is
     * a line that says why: the timed forks go on without it.
     */
    public static void run(List<Cell> cells, BenchConfig config, Path dir, PrintStream out) throws BenchException {
        for (Cell cell : cells) {
            if (!profiles(cell, config)) {
                continue;
            }
            long t0 = System.nanoTime();
            try {
                StringBuilder noSamples = new StringBuilder();
                Profiled p = profile(cell, CellSpec.of(cell.params(), config), dir, noSamples);
                out.printf(Locale.ROOT, "[inferbench] operator pass %s: %s, %d calls of %.4f ms (%.4f ms in operators),"
                                + " %s, %.2f s%n", dir.getFileName(), cell.id(), p.calls(), p.callMs(), p.layers().kernelMs(),
                        p.frames() != null ? p.frames().samples() + " cpu samples (" + p.frames().engine() + ")"
                                : "no cpu samples: " + noSamples, (System.nanoTime() - t0) / 1e9);
            } catch (BenchException e) {
                out.println("[inferbench] operator pass " + dir.getFileName() + ": none for " + cell.id() + ": "
                        + e.getMessage());
            }
        }
    }

    /** @param noSamples where the pass says why it has no cpu samples, when it has none */
    static Profiled profile(Cell cell, CellSpec spec, Path dir, StringBuilder noSamples) throws BenchException {
        Path file = Variants.file(spec.modelFile(), spec.precision());
        // ORT's own file, beside and not among the passes' files (ORT appends its time and .json to the name)
        Path raw = dir.resolve("ort").resolve(cell.id());
        try {
            Files.createDirectories(raw.getParent());
            FrameSampler sampler = sampler(raw.resolveSibling("frames.jfr"), noSamples);
            OrtProfiledRun run;
            try {
                run = OrtProfiledRun.run(spec.engine(), file, spec.device(), spec.settings(),
                        sig -> SyntheticInputs.forModel(spec.inputs(), sig.inputs()),
                        WARMUP_CALLS, MIN_CALLS, MAX_CALLS, PASS_MS * 1_000_000L, raw,
                        sampler != null ? sampler : OrtProfiledRun.Window.NONE);
            } finally {
                if (sampler != null) {
                    sampler.abort();
                }
            }
            PassFrames frames = null;
            if (sampler != null) {
                try {
                    frames = sampler.read(dir.resolve(cell.id() + PassFrames.STACKS_SUFFIX));
                } catch (BenchException e) {
                    noSamples.append(e.getMessage());
                }
            }
            OrtProfile session;
            try {
                session = OrtProfile.read(run.profileJson());
            } finally {
                Files.deleteIfExists(run.profileJson());
            }
            int calls = run.callNanos().length;
            LayerTimes layers = LayerTimes.of(cell.label(), session, calls, OnnxSummary.read(file));
            double callMs = Arrays.stream(run.callNanos()).average().orElse(Double.NaN) / 1e6;
            Profiled p = new Profiled(cell.benchmark(), cell.params(), calls, callMs, layers, frames);
            write(p, dir.resolve(cell.id() + SUFFIX));
            return p;
        } catch (IOException e) {
            throw new BenchException("cannot write the operator pass of " + cell.label() + " to " + dir + ": "
                    + e.getMessage() + "; expected a writable run folder", e);
        }
    }

    /** The pass's cpu sampler, or null (with the reason in {@code why}) where async-profiler cannot run here. */
    private static FrameSampler sampler(Path jfr, StringBuilder why) {
        if (jfr.toString().contains(",")) {
            why.append("the run folder's path holds a comma, which async-profiler's options cannot take");
            return null;
        }
        try {
            return FrameSampler.open(jfr);
        } catch (BenchException e) {
            why.append(e.getMessage());
            return null;
        }
    }

    /** Writes whole or not at all (temp file + rename): a reader never meets half a pass. */
    static void write(Profiled p, Path file) throws IOException {
        AtomicFile.write(file, out -> JSON.writeValue(out, p));
    }

    public static Profiled read(Path file) throws BenchException {
        try {
            return JSON.readValue(file.toFile(), Profiled.class);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage()
                    + "; expected the file an operator pass writes", e);
        }
    }

    /** Every cell's pass in {@code dir}, in file-name order; none when the folder is missing. */
    public static List<Profiled> readAll(Path dir) throws BenchException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Profiled> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(SUFFIX)).sorted().toList()) {
                out.add(read(f));
            }
        } catch (IOException e) {
            throw new BenchException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return out;
    }
}
