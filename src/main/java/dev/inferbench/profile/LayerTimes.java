package dev.inferbench.profile;

import dev.inferbench.Json;
import ai.onnx.proto.OnnxMl;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;
import dev.inferbench.model.stats.LayerName;
import dev.inferbench.model.stats.OnnxSummary;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where an ORT session spends its time, by layer: each node ORT ran, mapped back to the node of the model file it
 * came from, and by module. ORT's optimizer renames what it rewrites, after the tensor the new node writes
 * ({@code relu.out_1_nchwc}: a Conv with its BatchNorm and ReLU fused, writing the ReLU's output) or after the node
 * it fused ({@code encoder.layer.0.attention.self.matmul/MatMulScaleFusion/}, {@code fused pooler.dense:matmul/...}),
 * so a kernel is matched to the file's node of its name, else to the longest node name or tensor name (then its
 * producer) that its name holds as a whole word. A node ORT made without naming its source ({@code BiasGelu_token_3},
 * layout reorders) keeps ORT's name and takes the module of the kernel that ran before it, as ORT's fusions replace
 * operators where they stood; before any matched kernel it sits in {@link #ENGINE_ADDED}.
 *
 * @param cell      the cell's label
 * @param runs      measured model runs
 * @param kernelMs  all kernels' time per run, ms
 * @param layers    ORT's nodes, most time first
 * @param modules   modules, most time first
 * @param arena     ORT's own activation memory over the session's first run, null when the profile lacks it
 */
public record LayerTimes(String cell, int runs, double kernelMs, List<Layer> layers, List<Module> modules,
                         OrtArena arena) {
    /** The module of kernels ORT made without naming their source that run before any it did name. */
    public static final String ENGINE_ADDED = "(added by ORT)";
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY, Json.Option.LENIENT);

    /**
     * One node as ORT ran it.
     *
     * @param node       ORT's node name
     * @param layer      the file's node it came from (ORT's name when ORT added it)
     * @param opType     ORT's operator
     * @param fileOpType the operator of the file's node ({@code Relu} for a Conv that ORT fused up to that ReLU)
     * @param msPerRun   its kernel time per run, ms
     * @param share      fraction of all kernel time
     */
    public record Layer(String node, String layer, String module, String opType, String fileOpType, double msPerRun,
                        double share) {
        /** {@code Conv}, or {@code Conv…Relu} when ORT's kernel runs the file's operators up to a ReLU. */
        public String operator() {
            return fileOpType.isEmpty() || fileOpType.equals(opType) ? opType : opType + "\u2026" + fileOpType;
        }
    }

    /** One module: its layers' time. */
    public record Module(String module, int layers, double msPerRun, double share) {
    }

    /**
     * @param session  the whole session's profile (its first run gives the arena figures)
     * @param measured how many of its last runs were measured
     * @param model    the file the session ran
     */
    public static LayerTimes of(String cell, OrtProfile session, int measured, OnnxSummary model) {
        OrtProfile timed = session.lastRuns(measured);
        int runs = Math.max(1, timed.modelRuns().size());
        Names names = new Names(model);
        Map<String, long[]> micros = new LinkedHashMap<>();
        Map<String, String> opTypes = new HashMap<>();
        long all = 0;
        for (OrtProfile.Kernel k : timed.kernels()) {
            micros.computeIfAbsent(k.node(), n -> new long[1])[0] += k.micros();
            opTypes.putIfAbsent(k.node(), k.opType());
            all += k.micros();
        }
        long total = all;
        List<Layer> layers = new ArrayList<>();
        Map<String, double[]> byModule = new LinkedHashMap<>();
        String[] previous = {ENGINE_ADDED};
        micros.forEach((node, us) -> { // in the order ORT ran them
            String layer = names.layerOf(node);
            String module = layer == null ? previous[0] : LayerName.module(layer);
            previous[0] = module;
            double share = total == 0 ? 0 : (double) us[0] / total;
            layers.add(new Layer(node, layer == null ? node : layer, module, opTypes.get(node),
                    layer == null ? "" : names.opType(layer), us[0] / 1e3 / runs, share));
            double[] m = byModule.computeIfAbsent(module, x -> new double[3]);
            m[0]++;
            m[1] += us[0] / 1e3 / runs;
            m[2] += share;
        });
        layers.sort(Comparator.comparingDouble(Layer::msPerRun).reversed());
        List<Module> modules = new ArrayList<>();
        byModule.forEach((module, m) -> modules.add(new Module(module, (int) m[0], m[1], m[2])));
        modules.sort(Comparator.comparingDouble(Module::msPerRun).reversed());
        return new LayerTimes(cell, timed.modelRuns().size(), total / 1e3 / runs, List.copyOf(layers),
                List.copyOf(modules), OrtArena.of(session).orElse(null));
    }

    /** The top {@code n} layers and modules as fixed-width text tables. */
    public void printTable(PrintStream out, int n) {
        out.printf(Locale.ROOT, "%-48s %-30s %-24s %10s %7s%n", "layer (ORT node)", "module", "operator",
                "ms per run", "share");
        for (Layer l : layers.subList(0, Math.min(n, layers.size()))) {
            out.printf(Locale.ROOT, "%-48s %-30s %-24s %10.3f %6.1f%%%n", l.layer(), LayerName.shown(l.module()),
                    l.operator(), l.msPerRun(), l.share() * 100);
        }
        out.printf(Locale.ROOT, "%-48s %5s %10s %7s%n", "module", "nodes", "ms per run", "share");
        for (Module m : modules.subList(0, Math.min(n, modules.size()))) {
            out.printf(Locale.ROOT, "%-48s %5d %10.3f %6.1f%%%n", LayerName.shown(m.module()), m.layers(), m.msPerRun(),
                    m.share() * 100);
        }
    }

    public void writeJson(OutputStream out) throws IOException {
        JSON.writeValue(out, this);
    }

    public static LayerTimes read(Path file) throws BenchException {
        try {
            return JSON.readValue(file.toFile(), LayerTimes.class);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage()
                    + "; expected the layers.json the operator profile writes", e);
        }
    }

    /** The file's node names and the producer of each tensor, to find where an ORT node came from. */
    private static final class Names {
        private final Map<String, String> producers = new HashMap<>();
        private final Map<String, String> opTypes = new HashMap<>();

        Names(OnnxSummary model) {
            for (int i = 0; i < model.nodes().size(); i++) {
                OnnxMl.NodeProto n = model.nodes().get(i);
                String name = LayerName.node(n, i);
                opTypes.put(name, n.getOpType());
                n.getOutputList().forEach(o -> producers.put(o, name));
            }
        }

        String opType(String node) {
            return opTypes.getOrDefault(node, "");
        }

        /** The file's node an ORT node came from, or null for one ORT made without naming its source. */
        String layerOf(String ortNode) {
            if (opTypes.containsKey(ortNode)) {
                return ortNode;
            }
            String node = longestWord(opTypes, ortNode);
            String tensor = longestWord(producers, ortNode);
            if (node == null || tensor != null && tensor.length() > node.length()) {
                return tensor == null ? null : producers.get(tensor);
            }
            return node;
        }

        /**
         * The longest key that {@code name} holds as a whole word: at its start or after a space or '/', and at its
         * end or before '_' or '/' ({@code relu.out_1} in {@code relu.out_1_nchwc}, not {@code relu.out_1} in
         * {@code relu.out_10_nchwc}).
         */
        private static String longestWord(Map<String, String> map, String name) {
            String best = null;
            for (String key : map.keySet()) {
                if (best != null && key.length() <= best.length()) {
                    continue;
                }
                for (int at = name.indexOf(key); at >= 0; at = name.indexOf(key, at + 1)) {
                    int end = at + key.length();
                    boolean starts = at == 0 || name.charAt(at - 1) == ' ' || name.charAt(at - 1) == '/';
                    boolean ends = end == name.length() || name.charAt(end) == '_' || name.charAt(end) == '/';
                    if (starts && ends) {
                        best = key;
                        break;
                    }
                }
            }
            return best;
        }
    }
}
