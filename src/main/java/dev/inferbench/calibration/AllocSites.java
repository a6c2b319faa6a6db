package dev.inferbench.calibration;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Allocated bytes per call by site, from collapsed allocation stacks weighed in bytes (the allocated class is the
 * leaf frame): each site is the innermost frame of code that is not the JDK's, and its owner says whose code made
 * the allocation: {@value #HARNESS} (dev.inferbench), {@value #BINDING} (ai.onnxruntime, ORT's Java API) or
 * {@value #OTHER}.
 *
 * @param rows  by bytes per call, largest first
 * @param total all bytes per call
 */
record AllocSites(List<Row> rows, double total) {
    static final String HARNESS = "inferbench";
    static final String BINDING = "ORT Java binding";
    static final String OTHER = "other";

    /** One allocated class at one site, and how many bytes per call it took. */
    record Row(String owner, String site, String type, double bytesPerCall) {
    }

    static AllocSites of(Map<String, Long> stacks, long calls) {
        Map<List<String>, Long> bytes = new LinkedHashMap<>();
        long all = 0;
        for (Map.Entry<String, Long> e : stacks.entrySet()) {
            String[] frames = e.getKey().split(";");
            String type = strip(frames[frames.length - 1]);
            String site = "(JDK only)";
            for (int i = frames.length - 2; i >= 0; i--) {
                String f = strip(frames[i]);
                if (!f.startsWith("java/") && !f.startsWith("jdk/") && !f.startsWith("sun/")) {
                    site = f;
                    break;
                }
            }
            bytes.merge(List.of(owner(site), site, type), e.getValue(), Long::sum);
            all += e.getValue();
        }
        List<Row> rows = new ArrayList<>();
        bytes.forEach((k, b) -> rows.add(new Row(k.get(0), k.get(1), k.get(2), (double) b / calls)));
        rows.sort(Comparator.comparingDouble(Row::bytesPerCall).reversed().thenComparing(Row::site));
        return new AllocSites(List.copyOf(rows), (double) all / calls);
    }

    private static String owner(String site) {
        if (site.startsWith("dev/inferbench/")) {
            return HARNESS;
        }
        return site.startsWith("ai/onnxruntime/") ? BINDING : OTHER;
    }

    /** A frame without the converter's type suffix ({@code _[j]}, {@code _[i]}...). */
    private static String strip(String frame) {
        return frame.replaceFirst("_\\[.]$", "");
    }

    /** Bytes per call of one owner. */
    double of(String owner) {
        return rows.stream().filter(r -> r.owner().equals(owner)).mapToDouble(Row::bytesPerCall).sum();
    }

    void print(PrintStream out, String title) {
        out.printf(Locale.ROOT, "%s: %.1f B per call (%s %.1f, %s %.1f, %s %.1f)%n", title, total,
                HARNESS, of(HARNESS), BINDING, of(BINDING), OTHER, of(OTHER));
        out.printf(Locale.ROOT, "%10s  %-18s %-44s %s%n", "B/call", "owner", "class", "allocated in");
        for (Row r : rows) {
            if (r.bytesPerCall() >= 0.05) {
                out.printf(Locale.ROOT, "%10.1f  %-18s %-44s %s%n", r.bytesPerCall(), r.owner(), r.type(), r.site());
            }
        }
    }
}
