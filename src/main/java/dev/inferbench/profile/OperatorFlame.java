package dev.inferbench.profile;

import dev.inferbench.AtomicFile;
import dev.inferbench.BenchException;
import dev.inferbench.engine.ForkOrtProfile;
import dev.inferbench.model.stats.OnnxSummary;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code --flame-events cpu,ops} after a fork: ONNX Runtime's session profile of the fork (recorded in
 * {@code fork-N/ort/} by {@link ForkOrtProfile}) joined with the fork's cpu samples ({@link OperatorJoin}). The
 * joined stacks replace the fork's {@code cpu.collapsed} and its two HTML graphs, so the merged graph of the cell
 * and {@code flame diff} use them; {@code ops-check.txt} sets the operators' shares of the samples beside their
 * shares of ORT's kernel time ({@link OperatorShares}).
 */
final class OperatorFlame {
    /** The fork's folder for ORT's profile files. */
    static final String ORT_DIR = "ort";
    static final String CHECK = "ops-check.txt";
    /** Larger profiles are not read: ORT writes one event per kernel per call, so such a fork ran µs calls for long. */
    static final long MAX_PROFILE_BYTES = 200L << 20;

    private OperatorFlame() {
    }

    /** The fork's JVM argument that turns ORT's profile on in every session the fork opens. */
    static String forkArgument(Path forkDir) {
        return "-D" + ForkOrtProfile.PROPERTY + "=" + forkDir.resolve(ORT_DIR).toAbsolutePath();
    }

    /**
     * Joins the fork's samples of {@code event} with its ORT profile and rewrites the graphs.
     *
     * @param model the file the cell ran, for layer names; null when it has none that can be read
     * @return the check, or null when the fork holds no ORT profile (then {@code why} says so in one line)
     */
    static OperatorShares write(Path forkDir, Path jfr, String event, String title, Path model, StringBuilder why)
            throws BenchException {
        List<Map.Entry<Long, OrtProfile>> sessions = sessions(forkDir.resolve(ORT_DIR), why);
        if (sessions.isEmpty()) {
            return null;
        }
        KernelTimeline timeline = new KernelTimeline(sessions);
        Function<OrtProfile.Kernel, KernelName> names = names(sessions, model);
        List<OperatorJoin.Sample> samples = JfrSamples.read(jfr, event);
        OperatorJoin.Joined joined = OperatorJoin.join(samples, timeline, k -> names.apply(k).frames());
        Path collapsed = forkDir.resolve(event + ".collapsed");
        try {
            AtomicFile.write(collapsed, o -> {
                PrintStream out = new PrintStream(o, false, StandardCharsets.UTF_8);
                joined.stacks().forEach((stack, n) -> out.println(stack + " " + n));
                out.flush();
            });
        } catch (IOException e) {
            throw new BenchException("cannot write " + collapsed + ": " + e.getMessage(), e);
        }
        html(forkDir.resolve(event + "-forward.html"), collapsed, title, false);
        html(forkDir.resolve(event + "-reverse.html"), collapsed, title + " (reverse)", true);
        long from = samples.stream().mapToLong(OperatorJoin.Sample::ns).min().orElse(0);
        long to = samples.stream().mapToLong(OperatorJoin.Sample::ns).max().orElse(0);
        OperatorShares shares = OperatorShares.of(joined, timeline, names, from, to);
        Path check = forkDir.resolve(CHECK);
        try {
            AtomicFile.write(check, o -> {
                PrintStream out = new PrintStream(o, false, StandardCharsets.UTF_8);
                shares.print(out, Integer.MAX_VALUE);
                out.flush();
            });
        } catch (IOException e) {
            throw new BenchException("cannot write " + check + ": " + e.getMessage(), e);
        }
        return shares;
    }

    private static void html(Path file, Path collapsed, String title, boolean reverse) throws BenchException {
        try {
            AtomicFile.write(file, out -> FlameGraphs.merge(List.of(collapsed), title, reverse, out));
        } catch (IOException e) {
            throw new BenchException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Each session's start (ns since the epoch) and profile, from the {@code session-N.properties} the fork wrote. */
    static List<Map.Entry<Long, OrtProfile>> sessions(Path dir, StringBuilder why) throws BenchException {
        List<Path> records;
        try (Stream<Path> s = Files.isDirectory(dir) ? Files.list(dir) : Stream.empty()) {
            records = s.filter(p -> p.getFileName().toString().startsWith(ForkOrtProfile.SESSION)
                    && p.getFileName().toString().endsWith(".properties")).sorted().toList();
        } catch (IOException e) {
            throw new BenchException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        List<Map.Entry<Long, OrtProfile>> sessions = new ArrayList<>();
        for (Path record : records) {
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(record)) {
                p.load(in);
            } catch (IOException e) {
                throw new BenchException("cannot read " + record + ": " + e.getMessage(), e);
            }
            Path json = dir.resolve(p.getProperty(ForkOrtProfile.FILE, ""));
            long start = nanos(p, ForkOrtProfile.START_NS, record);
            long opening = nanos(p, ForkOrtProfile.OPENING_NS, record);
            long opened = nanos(p, ForkOrtProfile.OPENED_NS, record);
            if (start < opening || start > opened) {
                why.append("ORT's profiler says it started at ").append(start).append(" ns, outside the wall-clock "
                        + "interval in which its session was created (").append(opening).append(" to ").append(opened)
                        .append(" ns): its clock is not the one the samples are on; ");
                continue;
            }
            try {
                if (!Files.isRegularFile(json) || Files.size(json) > MAX_PROFILE_BYTES) {
                    why.append(json.getFileName()).append(Files.isRegularFile(json)
                            ? " is larger than " + (MAX_PROFILE_BYTES >> 20) + " MiB (µs calls for long: use a shorter fork)"
                            : " is missing").append("; ");
                    continue;
                }
            } catch (IOException e) {
                throw new BenchException("cannot read " + json + ": " + e.getMessage(), e);
            }
            sessions.add(Map.entry(start, OrtProfile.read(json)));
        }
        if (sessions.isEmpty() && why.isEmpty()) {
            why.append("the fork opened no ONNX Runtime session (engines ort and djl-ort record one)");
        }
        return sessions;
    }

    private static long nanos(Properties p, String key, Path record) throws BenchException {
        try {
            return Long.parseLong(p.getProperty(key, ""));
        } catch (NumberFormatException e) {
            throw new BenchException(record + " has no valid " + key + "; expected ns since the epoch, as the fork "
                    + "writes them", e);
        }
    }

    /** Each ORT node as the model file's layer and module when the file can be read, else as ORT names it. */
    private static Function<OrtProfile.Kernel, KernelName> names(List<Map.Entry<Long, OrtProfile>> sessions, Path model) {
        Map<String, KernelName> byNode = new HashMap<>();
        OnnxSummary summary = null;
        try {
            summary = model == null ? null : OnnxSummary.read(model);
        } catch (BenchException unreadable) {
            // TorchScript or a file the summary reader cannot read: ORT's own names stand
        }
        if (summary != null) {
            for (Map.Entry<Long, OrtProfile> s : sessions) {
                OrtProfile p = s.getValue();
                for (LayerTimes.Layer l : LayerTimes.of("", p, Math.max(1, p.modelRuns().size()), summary).layers()) {
                    byNode.putIfAbsent(l.node(), new KernelName(l.module(), l.layer(), l.operator()));
                }
            }
        }
        return k -> byNode.getOrDefault(k.node(), new KernelName("", k.node(), k.opType()));
    }
}
