package dev.inferbench.profile;

import dev.inferbench.Json;
import java.util.Arrays;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where an ORT session spends its time, by operator type: total kernel time, share of all kernel time, calls, and
 * the harness overhead (a caller's per-call time against ORT's own {@code model_run}).
 *
 * @param ops            operator types, largest total first
 * @param runs           measured model runs in the profile
 * @param modelRunMs     mean of ORT's {@code model_run} durations, ms
 * @param callMs         mean of the same calls timed from Java around the engine's run, ms
 */
public record OpTable(List<Op> ops, int runs, double modelRunMs, double callMs) {
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY);


    /**
     * One operator type.
     *
     * @param totalMs all its kernels' time over the measured runs, ms
     * @param share   fraction of all kernel time
     * @param kernels kernel runs (nodes × runs)
     * @param perRunMs totalMs / runs
     */
    public record Op(String opType, double totalMs, double share, int kernels, double perRunMs) {
    }

    public static OpTable of(OrtProfile profile, long[] callNanos) {
        Map<String, long[]> byType = new LinkedHashMap<>();
        long all = 0;
        for (OrtProfile.Kernel k : profile.kernels()) {
            long[] acc = byType.computeIfAbsent(k.opType(), t -> new long[2]);
            acc[0] += k.micros();
            acc[1]++;
            all += k.micros();
        }
        int runs = Math.max(1, profile.modelRuns().size());
        long total = all;
        List<Op> ops = byType.entrySet().stream()
                .map(e -> new Op(e.getKey(), e.getValue()[0] / 1e3, total == 0 ? 0 : (double) e.getValue()[0] / total,
                        (int) e.getValue()[1], e.getValue()[0] / 1e3 / runs))
                .sorted(Comparator.comparingDouble(Op::totalMs).reversed().thenComparing(Op::opType))
                .toList();
        double modelRun = profile.modelRuns().stream().mapToLong(OrtProfile.Run::micros).average().orElse(Double.NaN) / 1e3;
        double call = Arrays.stream(callNanos).average().orElse(Double.NaN) / 1e6;
        return new OpTable(ops, profile.modelRuns().size(), modelRun, call);
    }

    /** (our per-call time / ORT's model_run time) - 1: what the Java binding and harness add to each call. */
    public double harnessOverhead() {
        return callMs / modelRunMs - 1;
    }

    /** The top {@code n} operator types as a fixed-width text table, then the harness overhead line. */
    public void printTable(PrintStream out, int n) {
        out.printf(Locale.ROOT, "%-24s %10s %7s %8s %11s%n", "operator", "total ms", "share", "kernels", "ms per run");
        for (Op op : ops.subList(0, Math.min(n, ops.size()))) {
            out.printf(Locale.ROOT, "%-24s %10.3f %6.1f%% %8d %11.3f%n", op.opType(), op.totalMs(), op.share() * 100,
                    op.kernels(), op.perRunMs());
        }
        out.println(overheadLine());
    }

    public String overheadLine() {
        return String.format(Locale.ROOT, "harness overhead: %.3f ms per call from Java vs %.3f ms ORT model_run over "
                + "%d runs: %+.2f%%", callMs, modelRunMs, runs, harnessOverhead() * 100);
    }

    /** The table as JSON (every operator type, plus the overhead figures). */
    public void writeJson(OutputStream out) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("runs", runs);
        json.put("modelRunMs", modelRunMs);
        json.put("callMs", callMs);
        json.put("harnessOverhead", harnessOverhead());
        json.put("ops", ops);
        JSON.writeValue(out, json);
    }

    /**
     * The profile as collapsed stacks for a flame graph, session run, then operator type, then node, weighted in
     * µs: {@code model_run;Conv;conv1 1234}.
     */
    public static void writeCollapsed(OrtProfile profile, PrintStream out) {
        Map<String, Long> stacks = new LinkedHashMap<>();
        for (OrtProfile.Kernel k : profile.kernels()) {
            stacks.merge("model_run;" + KernelName.frame(k.opType()) + ";" + KernelName.frame(k.node()), k.micros(), Long::sum);
        }
        long kernels = profile.kernels().stream().mapToLong(OrtProfile.Kernel::micros).sum();
        long runs = profile.modelRuns().stream().mapToLong(OrtProfile.Run::micros).sum();
        if (runs > kernels) {
            // time inside model_run outside every kernel: scheduling, allocation, copies between nodes
            stacks.put("model_run;[between kernels]", runs - kernels);
        }
        stacks.forEach((stack, micros) -> out.println(stack + " " + micros));
    }
}
