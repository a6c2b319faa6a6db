package dev.inferbench.profile;

import dev.inferbench.model.stats.LayerName;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The check of a joined flame graph against ONNX Runtime's own profile of the same fork: each operator's (and
 * module's) share of the kernel time ORT recorded on the calling thread while the samples were taken, beside its
 * share of the samples the join gave a kernel, on the calling thread and on all threads (workers included). The
 * calling thread's shares estimate the same quantity as ORT's (time in each kernel on that thread), so they agree
 * up to sampling noise when the join is right; workers add the time they spent on (or spinning for) each kernel.
 *
 * @param operators by operator, most kernel time first
 * @param modules   by module, most kernel time first
 * @param labels    library samples that got no kernel, by what they got instead ({@code [between kernels]} ...)
 */
record OperatorShares(List<Row> operators, List<Row> modules, Map<String, Long> labels, long librarySamples,
                      long callerElsewhere, long callerElsewhereInRun) {

    /** One operator or module: shares in [0, 1] and the sample counts behind them. */
    record Row(String name, double kernelShare, double callerShare, long callerSamples, double allShare,
               long allSamples) {
    }

    /** @param from the first sample's instant, @param to the last one's: ORT's kernel time is counted in between */
    static OperatorShares of(OperatorJoin.Joined joined, KernelTimeline timeline, Function<OrtProfile.Kernel, KernelName> names,
                             long from, long to) {
        Map<String, Long> labels = new TreeMap<>();
        joined.given().stream().filter(g -> g.kernel() == null).forEach(g -> labels.merge(g.label(), 1L, Long::sum));
        return new OperatorShares(rows(joined, timeline, k -> names.apply(k).operator(), from, to),
                rows(joined, timeline, k -> names.apply(k).module(), from, to), labels, joined.given().size(),
                joined.callerElsewhere(), joined.callerElsewhereInRun());
    }

    private static List<Row> rows(OperatorJoin.Joined joined, KernelTimeline timeline, Function<OrtProfile.Kernel, String> key,
                                  long from, long to) {
        Map<String, double[]> acc = new LinkedHashMap<>(); // kernel ns, calling-thread samples, all samples
        for (KernelTimeline.Span s : timeline.kernels()) {
            long ns = Math.min(s.end(), to) - Math.max(s.start(), from);
            if (ns > 0 && timeline.isCaller(s.tid())) {
                acc.computeIfAbsent(key.apply(s.kernel()), k -> new double[3])[0] += ns;
            }
        }
        for (OperatorJoin.Given g : joined.given()) {
            if (g.kernel() != null) {
                double[] a = acc.computeIfAbsent(key.apply(g.kernel().kernel()), k -> new double[3]);
                a[1] += g.caller() ? 1 : 0;
                a[2]++;
            }
        }
        double[] total = new double[3];
        acc.values().forEach(a -> {
            for (int i = 0; i < 3; i++) {
                total[i] += a[i];
            }
        });
        List<Row> rows = new ArrayList<>();
        acc.forEach((name, a) -> rows.add(new Row(name, share(a[0], total[0]), share(a[1], total[1]), (long) a[1],
                share(a[2], total[2]), (long) a[2])));
        rows.sort(Comparator.comparingDouble(Row::kernelShare).reversed().thenComparing(Row::name));
        return List.copyOf(rows);
    }

    private static double share(double part, double all) {
        return all == 0 ? 0 : part / all;
    }

    /** The largest difference, in percentage points, between kernel-time and calling-thread sample shares. */
    static double largestGap(List<Row> rows) {
        return rows.stream().mapToDouble(r -> Math.abs(r.kernelShare() - r.callerShare()) * 100).max().orElse(0);
    }

    /** The top {@code n} rows of both tables, the largest gaps, what the other samples got, and the clock check. */
    void print(PrintStream out, int n) {
        table(out, "operator", operators, n);
        table(out, "module", modules, n);
        out.printf(Locale.ROOT, "largest difference, ORT kernel time vs calling-thread samples: %.1f points by operator, "
                + "%.1f by module%n", largestGap(operators), largestGap(modules));
        long joinedToKernels = librarySamples - labels.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder other = new StringBuilder();
        labels.forEach((label, count) -> other.append(", ").append(label).append(' ').append(count));
        out.printf(Locale.ROOT, "samples in libonnxruntime: %d, given a kernel %d%s%n", librarySamples, joinedToKernels, other);
        out.printf(Locale.ROOT, "clock check: %d of %d calling-thread samples outside the library fell inside a "
                + "model_run (0 when both recordings are on one clock)%n", callerElsewhereInRun, callerElsewhere);
    }

    private static void table(PrintStream out, String what, List<Row> rows, int n) {
        out.printf(Locale.ROOT, "%-40s %11s %22s %22s%n", what, "ORT kernel", "samples, calling", "samples, all threads");
        for (Row r : rows.subList(0, Math.min(n, rows.size()))) {
            out.printf(Locale.ROOT, "%-40s %10.1f%% %13.1f%% %7d %13.1f%% %7d%n", what.equals("module")
                    ? LayerName.shown(r.name()) : r.name(), r.kernelShare() * 100,
                    r.callerShare() * 100, r.callerSamples(), r.allShare() * 100, r.allSamples());
        }
    }
}
