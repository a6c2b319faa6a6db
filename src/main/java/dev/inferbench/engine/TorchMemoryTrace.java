package dev.inferbench.engine;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What libtorch's own memory accounting says about one profiled stretch of work: the trace DJL writes when libtorch's
 * (legacy autograd) profiler ran with memory profiling ({@code JniUtils.startProfile(false, false, true)}). Each
 * operator event carries {@code "cpu mem"}, the bytes libtorch's CPU allocator handed out minus those it took back
 * while the operator ran, its nested operators included ({@code "32.00 Kb"}, {@code "-3.97 Mb"}, powers of 1024).
 *
 * <p>Events nest by time on one thread: {@code aten::matmul} holds {@code aten::mm}; a backward step
 * ({@code autograd::engine::evaluate_function: MmBackward0}) holds the operators it runs. Summing the top-level events
 * in time order gives the memory the stretch left allocated ({@link #net}); the highest running total, looking
 * inside each event at its nested ones, gives its peak ({@link #peak}). Frees that happen outside any operator (an
 * array closed from Java) are not seen: a stretch should end before its arrays are closed.
 */
final class TorchMemoryTrace {
    private static final Pattern MEMORY = Pattern.compile("(-?[0-9.]+)\\s*(b|Kb|Mb|Gb|Tb)");
    private static final Map<String, Double> UNITS = Map.of("b", 1.0, "Kb", 1024.0, "Mb", 1024.0 * 1024,
            "Gb", 1024.0 * 1024 * 1024, "Tb", 1024.0 * 1024 * 1024 * 1024);

    /** One operator call: start and duration (µs), its thread, net bytes, the calls nested in it. */
    private record Event(String name, double start, double duration, String thread, double bytes, List<Event> nested) {
        double end() {
            return start + duration;
        }

        /** The highest running total while it ran: over its nested events in order, and at its own end. */
        double peak() {
            return Math.max(runningPeak(nested), bytes);
        }
    }

    private final List<Event> roots;
    private final int events;

    private TorchMemoryTrace(List<Event> roots, int events) {
        this.roots = roots;
        this.events = events;
    }

    static TorchMemoryTrace read(Path file) throws BenchException {
        JsonNode json;
        try {
            json = Json.mapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BenchException("cannot read libtorch's profile " + file + ": " + e.getMessage()
                    + "; expected the JSON trace libtorch's profiler writes", e);
        }
        return parse(json, file);
    }

    static TorchMemoryTrace parse(JsonNode json, Object source) throws BenchException {
        JsonNode list = json.isArray() ? json : json.path("traceEvents");
        if (!list.isArray()) {
            throw new BenchException("libtorch's profile " + source + " is not a list of events; expected the JSON trace"
                    + " libtorch's profiler writes");
        }
        List<Event> flat = new ArrayList<>();
        for (JsonNode e : list) {
            if (!"X".equals(e.path("ph").asText()) || !e.has("cpu mem")) {
                continue; // only complete operator events carry memory
            }
            flat.add(new Event(e.path("name").asText(), e.path("ts").asDouble(), e.path("dur").asDouble(),
                    e.path("pid").asText() + "/" + e.path("tid").asText(), bytes(e.path("cpu mem").asText(), source),
                    new ArrayList<>()));
        }
        // parents first: by start, the longer of two that start together first
        flat.sort(Comparator.comparingDouble(Event::start).thenComparing(Comparator.comparingDouble(Event::duration)
                .reversed()));
        List<Event> roots = new ArrayList<>();
        Map<String, Deque<Event>> open = new HashMap<>();
        for (Event e : flat) {
            Deque<Event> stack = open.computeIfAbsent(e.thread(), t -> new ArrayDeque<>());
            while (!stack.isEmpty() && stack.peek().end() < e.end() - 0.01) {
                stack.pop(); // it ended before this one did: not a parent (0.01 µs: the trace rounds)
            }
            if (stack.isEmpty()) {
                roots.add(e);
            } else {
                stack.peek().nested().add(e);
            }
            stack.push(e);
        }
        roots.sort(Comparator.comparingDouble(Event::start));
        return new TorchMemoryTrace(roots, flat.size());
    }

    /** {@code "32.00 Kb"} as bytes. */
    static double bytes(String text, Object source) throws BenchException {
        Matcher m = MEMORY.matcher(text.trim());
        if (!m.matches()) {
            throw new BenchException("libtorch's profile " + source + " has a memory figure '" + text + "'; expected a"
                    + " number and b, Kb, Mb or Gb");
        }
        return Double.parseDouble(m.group(1)) * UNITS.get(m.group(2));
    }

    /** Bytes allocated and not freed over the stretch. */
    double net() {
        return roots.stream().mapToDouble(Event::bytes).sum();
    }

    /** The most bytes held at once above the stretch's start, at the resolution of the operators' nesting. */
    double peak() {
        return runningPeak(roots);
    }

    /** Operator events in the trace, nested ones included. */
    int events() {
        return events;
    }

    private static double runningPeak(List<Event> inOrder) {
        double running = 0;
        double peak = 0;
        for (Event e : inOrder) {
            peak = Math.max(peak, running + e.peak());
            running += e.bytes();
        }
        return Math.max(peak, running);
    }
}
