package dev.inferbench.tail;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.inferbench.AtomicFile;
import dev.inferbench.Json;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A fork's {@value #NAME}: its tail table's figures, the calls above its p99 (at least its slowest ten), slowest first,
 * each with every cause that overlapped it (ms, whether given, what it was) and its main cause, and the JVM's episodes
 * during the measured iterations (GC pauses, safepoints, compilations, deoptimizations, the callers' waits): what a
 * timeline of the slowest calls against the JVM's events is drawn from. Times are ms from the first measured
 * iteration's start.
 */
final class SlowCallsFile {
    static final String NAME = "slow-calls.json";
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY);

    private SlowCallsFile() {
    }

    static void write(Path file, ForkTail table, Map<String, Double> figures, long lost, List<long[]> windows,
                      List<Episode> episodes) throws IOException {
        long zero = windows.get(0)[0];
        ObjectNode root = JSON.createObjectNode();
        ObjectNode f = root.putObject("figures");
        figures.forEach((k, v) -> Json.putNumber(f, k, v));
        root.put("recorded", table.slowest().size());
        ObjectNode byMain = root.putObject("recordedByMainCause");
        for (Attribution.Attributed a : table.slowest()) {
            String key = a.main() == null ? Cause.UNEXPLAINED : a.main().key();
            byMain.put(key, byMain.path(key).asInt() + 1);
        }
        root.put("lost", lost);
        ArrayNode w = root.putArray("windows");
        windows.forEach(x -> w.addArray().add(ms(x[0] - zero)).add(ms(x[1] - zero)));
        ArrayNode calls = root.putArray("slowCalls");
        Set<Long> threads = new HashSet<>();
        int shown = Math.min(table.slowest().size(), Math.max(table.tailCalls(), TailMetrics.TOP));
        for (Attribution.Attributed a : table.slowest().subList(0, shown)) {
            SlowCall c = a.call();
            threads.add(c.thread());
            ObjectNode n = calls.addObject();
            n.put("startMs", ms(c.start() - zero));
            n.put("ms", ms(c.nanos()));
            Json.putNumber(n, "offCpuMs", c.cpuKnown() ? ms(c.offCpuNanos()) : Double.NaN);
            n.put("thread", c.thread());
            n.put("main", a.main() == null ? Cause.UNEXPLAINED : a.main().key());
            ObjectNode causes = n.putObject("causes");
            a.overlaps().forEach((cause, nanos) -> {
                ObjectNode o = causes.putObject(cause.key());
                o.put("ms", ms(nanos));
                o.put("given", a.given().contains(cause));
                ArrayNode what = o.putArray("what");
                a.what().getOrDefault(cause, Set.of()).forEach(what::add);
            });
        }
        ArrayNode e = root.putArray("episodes");
        for (Episode ep : episodes) {
            boolean inWindow = windows.stream().anyMatch(x -> ep.end() >= x[0] && ep.start() <= x[1]);
            boolean shownThread = ep.thread() == Episode.ALL_THREADS || threads.contains(ep.thread());
            if (inWindow && shownThread) {
                ObjectNode n = e.addObject();
                n.put("cause", ep.cause().key());
                n.put("startMs", ms(ep.start() - zero));
                n.put("ms", ms(ep.end() - ep.start()));
                n.put("thread", ep.thread());
                n.put("what", ep.what());
            }
        }
        AtomicFile.write(file, out -> JSON.writeValue(out, root));
    }

    private static double ms(long nanos) {
        return Math.round(nanos / 1e3) / 1e3;
    }
}
