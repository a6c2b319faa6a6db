package dev.inferbench.profile;

import dev.inferbench.Json;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * ONNX Runtime's session profile (the Chrome-trace JSON written with {@code SessionOptions.enableProfiling}), read
 * once here for everything inferbench derives from it: each operator kernel's time and every {@code model_run}.
 *
 * @param kernels   each node's kernel time, in the order ORT ran them ({@code cat=Node}, name {@code *_kernel_time})
 * @param modelRuns each session run ({@code cat=Session}, name {@code model_run}), in order
 */
public record OrtProfile(List<Kernel> kernels, List<Run> modelRuns) {
    private static final ObjectMapper MAPPER = Json.mapper();
    private static final String KERNEL_SUFFIX = "_kernel_time";

    /**
     * One operator kernel run.
     *
     * @param node        the graph node's name (ORT's event name without {@code _kernel_time})
     * @param opType      the operator type, e.g. Conv
     * @param start       start time in µs since the session began
     * @param micros      duration in µs
     * @param arena       ORT's CPU arena once the kernel has run, null when the profile does not say (older ORT versions)
     * @param tid         the OS thread that ran it (the session's caller with the sequential executor); 0 when unknown
     */
    public record Kernel(String node, String opType, long start, long micros, Arena arena, long tid) {
        public Kernel(String node, String opType, long start, long micros, Arena arena) {
            this(node, opType, start, micros, arena, 0);
        }

        public Kernel(String node, String opType, long start, long micros) {
            this(node, opType, start, micros, null, 0);
        }
    }

    /**
     * ORT's allocator after a kernel ran: bytes requested and in use (rounded to the arena's bins), each with its
     * change over the kernel, and the arena's high-water mark of bytes in use so far.
     */
    public record Arena(long requested, long requestedDelta, long inUse, long inUseDelta, long inUsePeak) {
    }

    /** One {@code model_run}: start and duration in µs, and the OS thread that called it (0 when unknown). */
    public record Run(long start, long micros, long tid) {
        public Run(long start, long micros) {
            this(start, micros, 0);
        }
    }

    /** The profile of the last {@code n} runs only (the measured calls, after the warmup calls). */
    public OrtProfile lastRuns(int n) {
        if (n >= modelRuns.size()) {
            return this;
        }
        List<Run> kept = modelRuns.subList(modelRuns.size() - n, modelRuns.size());
        long from = kept.get(0).start();
        return new OrtProfile(kernels.stream().filter(k -> k.start() >= from).toList(), List.copyOf(kept));
    }

    public static OrtProfile read(Path file) throws BenchException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new BenchException("cannot read ORT profile " + file + ": " + e.getMessage()
                    + "; expected the JSON file written by ONNX Runtime's session profiling", e);
        }
    }

    static OrtProfile read(InputStream in, String source) throws BenchException, IOException {
        JsonNode root;
        try {
            root = MAPPER.readTree(in);
        } catch (IOException e) {
            throw new BenchException("ORT profile " + source + " is not valid JSON: " + e.getMessage()
                    + "; expected the array of trace events ONNX Runtime writes", e);
        }
        if (root == null || !root.isArray()) {
            throw new BenchException("ORT profile " + source + " is not a JSON array; expected the array of trace "
                    + "events ONNX Runtime writes");
        }
        List<Kernel> kernels = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        for (JsonNode e : root) {
            String cat = e.path("cat").asText();
            String name = e.path("name").asText();
            long dur = e.path("dur").asLong();
            if (cat.equals("Node") && name.endsWith(KERNEL_SUFFIX)) {
                JsonNode args = e.path("args");
                kernels.add(new Kernel(name.substring(0, name.length() - KERNEL_SUFFIX.length()),
                        args.path("op_name").asText("unknown"), e.path("ts").asLong(), dur, arena(args),
                        e.path("tid").asLong()));
            } else if (cat.equals("Session") && name.equals("model_run")) {
                runs.add(new Run(e.path("ts").asLong(), dur, e.path("tid").asLong()));
            }
        }
        return new OrtProfile(List.copyOf(kernels), List.copyOf(runs));
    }

    /** The arena figures ORT (1.29 here) writes into each kernel event, as strings; null without them. */
    private static Arena arena(JsonNode args) {
        if (!args.has("mem_bytes_requested_in_use") || !args.has("mem_bytes_in_use")) {
            return null;
        }
        return new Arena(args.path("mem_bytes_requested_in_use").asLong(), args.path("mem_requested_in_use_delta").asLong(),
                args.path("mem_bytes_in_use").asLong(), args.path("mem_in_use_delta").asLong(),
                args.path("mem_in_use_peak").asLong());
    }

    /** The kernels of the session's first run (before ORT reuses the memory pattern it planned from it). */
    public List<Kernel> firstRun() {
        if (modelRuns.size() < 2) {
            return kernels;
        }
        long next = modelRuns.get(1).start();
        return kernels.stream().filter(k -> k.start() < next).toList();
    }
}
