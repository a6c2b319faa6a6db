package dev.inferbench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.Json;
import dev.inferbench.tail.Cause;
import dev.inferbench.tail.TailMetrics;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One fork's {@code tail/<cell>/fork-N/slow-calls.json}, read as data (it may come from another machine): its slowest
 * calls with the causes that overlapped each, the JVM's episodes during its measured iterations and those iterations'
 * spans, all in ms from the first measured iteration's start. A cause key the report does not know is kept as text.
 *
 * @param fork     the fork's number (its folder's {@code fork-N})
 * @param p99Ms    the fork's p99, NaN where it has none (under 100 calls)
 * @param windows  the measured iterations, each {@code [start, end]}
 * @param calls    slowest first
 * @param episodes in the file's order
 */
record ForkSlowCalls(int fork, double p99Ms, List<double[]> windows, List<Call> calls, List<Episode> episodes) {
    static final String FILE = "slow-calls.json";
    /** Larger than any file a fork writes (its slowest calls and the episodes of one fork's measured seconds). */
    private static final long MAX_BYTES = 64L << 20;
    private static final ObjectMapper JSON = Json.mapper();

    /** What overlapped a call: ms, whether it was given to the call, what it was (a GC phase, a VM operation, a method). */
    record Overlap(double ms, boolean given, List<String> what) {
    }

    /** A slow call: where it started, how long it took, its time off its CPU (NaN where unknown), its main cause. */
    record Call(double startMs, double ms, double offCpuMs, long thread, String main, Map<String, Overlap> causes) {
        double endMs() {
            return startMs + ms;
        }
    }

    /** A GC pause, safepoint, wait, compilation or deoptimization ({@code ms} 0: an instant); thread -1: all. */
    record Episode(String cause, double startMs, double ms, long thread, String what) {
        double endMs() {
            return startMs + ms;
        }

        /** The ms this episode and the call share, where it stopped every thread or the call's own. */
        double overlap(Call c) {
            if (thread != -1 && thread != c.thread()) {
                return 0;
            }
            return Math.max(0, Math.min(endMs(), c.endMs()) - Math.max(startMs, c.startMs()));
        }

        boolean during(Call c) {
            return (thread == -1 || thread == c.thread()) && startMs <= c.endMs() && endMs() >= c.startMs();
        }
    }

    /** The same fork with only its {@code most} slowest calls. */
    ForkSlowCalls slowest(int most) {
        return calls.size() <= most ? this : new ForkSlowCalls(fork, p99Ms, windows, calls.subList(0, most), episodes);
    }

    /** The slowest call's ms, 0 without calls. */
    double slowestMs() {
        return calls.isEmpty() ? 0 : calls.get(0).ms();
    }

    /** The end of the last measured iteration, ms. */
    double endMs() {
        double end = windows.isEmpty() ? 0 : windows.get(windows.size() - 1)[1];
        for (Call c : calls) {
            end = Math.max(end, c.endMs());
        }
        return end;
    }

    static ForkSlowCalls read(Path file, int fork) throws BenchException {
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new BenchException(file + " holds " + Files.size(file) + " bytes; expected a fork's slow calls,"
                        + " at most " + MAX_BYTES);
            }
            JsonNode root = JSON.readTree(file.toFile());
            if (root == null || !root.isObject()) {
                throw new BenchException(file + " is not a JSON object; expected a fork's slow calls");
            }
            List<double[]> windows = new ArrayList<>();
            for (JsonNode w : root.path("windows")) {
                windows.add(new double[] {number(w.path(0)), number(w.path(1))});
            }
            List<Call> calls = new ArrayList<>();
            for (JsonNode c : root.path("slowCalls")) {
                Map<String, Overlap> causes = new LinkedHashMap<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = c.path("causes").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    List<String> what = new ArrayList<>();
                    e.getValue().path("what").forEach(x -> what.add(x.asText()));
                    causes.put(e.getKey(), new Overlap(number(e.getValue().path("ms")),
                            e.getValue().path("given").asBoolean(), List.copyOf(what)));
                }
                calls.add(new Call(number(c.path("startMs")), number(c.path("ms")), number(c.path("offCpuMs")),
                        c.path("thread").asLong(), c.path("main").asText(Cause.UNEXPLAINED), causes));
            }
            calls.removeIf(c -> !Double.isFinite(c.startMs()) || !(c.ms() >= 0));
            calls.sort((a, b) -> Double.compare(b.ms(), a.ms()));
            List<Episode> episodes = new ArrayList<>();
            for (JsonNode e : root.path("episodes")) {
                Episode ep = new Episode(e.path("cause").asText(), number(e.path("startMs")), number(e.path("ms")),
                        e.path("thread").asLong(-1), e.path("what").asText(""));
                if (Double.isFinite(ep.startMs()) && ep.ms() >= 0) {
                    episodes.add(ep);
                }
            }
            return new ForkSlowCalls(fork, number(root.path("figures").path(TailMetrics.P99)), List.copyOf(windows),
                    List.copyOf(calls), List.copyOf(episodes));
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage() + "; expected a fork's slow calls"
                    + " as --tail writes them", e);
        }
    }

    private static double number(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }
}
