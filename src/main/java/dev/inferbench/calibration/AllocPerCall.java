package dev.inferbench.calibration;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.engine.Outputs;
import dev.inferbench.engine.PreparedInput;
import dev.inferbench.input.SyntheticInputs;
import dev.inferbench.profile.FlameGraphs;
import dev.inferbench.profile.FlameHook;
import one.profiler.AsyncProfiler;
import one.profiler.Counter;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code calibrate alloc-per-call MODEL [BATCH] [ENGINE]}: every Java heap byte of one inference call, by the site
 * that allocated it. The cell is loaded and called as a benchmark caller calls it ({@code run}, then {@code close}
 * of the outputs), warmed up for {@value #WARMUP_SECONDS} s so the JIT has compiled the path, then exactly
 * {@code calls} calls on this thread: the thread's allocated bytes over them, divided by the calls, are the bytes of
 * one call (exact), and async-profiler's allocation samples (interval 1 byte, one per TLAB that fills) give the sites
 * (sampled: µs calls fill thousands of TLABs in the window; a 20 ms call's bytes may fill none). Unlike JMH's {@code gc.alloc.rate.norm}, nothing of JMH's own bookkeeping (its
 * SampleTime histogram, the trial's teardown in the last iteration) is in it. Writes {@code alloc.collapsed} and
 * {@code alloc-forward.html} (bytes over all the calls) and prints the table by class and site.
 */
public final class AllocPerCall {
    static final int WARMUP_SECONDS = 3;
    static final double RECORD_SECONDS = 2;

    private AllocPerCall() {
    }

    /** The check on its arguments (OUT_DIR MODEL [BATCH] [ENGINE]); its exit code. */
    public static int check(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: AllocPerCall OUT_DIR MODEL [BATCH] [ENGINE]");
            return 2;
        }
        try {
            run(Path.of(args[0]), args[1], args.length > 2 ? args[2] : "1", args.length > 3 ? args[3] : "ort", System.out);
            return 0;
        } catch (BenchException e) {
            System.err.println("inferbench: " + e.getMessage());
            return 2;
        }
    }

    static void run(Path out, String model, String batch, String engineId, PrintStream console) throws Exception {
        CellSpec spec = CellSpec.of(Map.of(CellSpec.MODEL, model, CellSpec.BATCH_SIZE, batch, CellSpec.ENGINE, engineId),
                BenchConfig.load());
        if (!Files.isRegularFile(spec.modelFile())) {
            throw new BenchException("model file " + spec.modelFile() + " is missing; expected it made by a run of "
                    + "the cell first (java -jar target/benchmarks.jar -p model=" + model + " -f 1 -i 1)");
        }
        AsyncProfiler profiler = AsyncProfiler.getInstance(FlameHook.profilerLibrary().toString());
        try (InferenceEngine engine = spec.engine().open(spec.modelFile(), spec.device(), spec.settings());
             PreparedInput input = engine.prepare(SyntheticInputs.forModel(spec.inputs(), engine.signature().inputs()))) {
            long warm = 0;
            long until = System.nanoTime() + WARMUP_SECONDS * 1_000_000_000L;
            while (System.nanoTime() < until) {
                call(engine, input);
                warm++;
            }
            long calls = Math.max(20, (long) (warm * RECORD_SECONDS / WARMUP_SECONDS));
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            profiler.execute("start,event=alloc,alloc=1,threads");
            long before = threads.getCurrentThreadAllocatedBytes();
            for (long i = 0; i < calls; i++) {
                call(engine, input);
            }
            long exact = threads.getCurrentThreadAllocatedBytes() - before;
            profiler.execute("stop");
            String thread = "[" + Thread.currentThread().getName() + " tid=";
            Map<String, Long> stacks = new LinkedHashMap<>();
            for (String line : profiler.dumpCollapsed(Counter.TOTAL).split("\n")) {
                int space = line.lastIndexOf(' ');
                if (line.startsWith(thread) && space > 0) {
                    stacks.merge(line.substring(line.indexOf(';') + 1, space), Long.parseLong(line.substring(space + 1)), Long::sum);
                }
            }
            write(out, stacks, spec, calls);
            console.printf(Locale.ROOT, "Java heap per call, %s batch %s on %s, %d calls after %d warm-up calls: %.1f B "
                    + "(the thread's allocated bytes, exact)%n", model, batch, engineId, calls, warm, (double) exact / calls);
            AllocSites.of(stacks, calls).print(console, "by site (async-profiler's allocation samples)");
        }
    }

    private static void call(InferenceEngine engine, PreparedInput input) throws BenchException {
        try (Outputs o = engine.run(input)) {
            if (o.count() < 0) {
                throw new IllegalStateException("an engine returned a negative output count");
            }
        }
    }

    private static void write(Path out, Map<String, Long> stacks, CellSpec spec, long calls) throws IOException, BenchException {
        Files.createDirectories(out);
        Path collapsed = out.resolve("alloc.collapsed");
        AtomicFile.write(collapsed, o -> {
            PrintStream p = new PrintStream(o, false, StandardCharsets.UTF_8);
            stacks.forEach((stack, bytes) -> p.println(stack + " " + bytes));
            p.flush();
        });
        AtomicFile.write(out.resolve("alloc-forward.html"), html -> FlameGraphs.merge(List.of(collapsed),
                String.format(Locale.ROOT, "%s batch %d on %s: Java heap bytes of %d calls", spec.modelName(),
                        spec.batchSize(), spec.engine().id(), calls), false, html));
    }
}
