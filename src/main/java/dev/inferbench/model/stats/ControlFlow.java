package dev.inferbench.model.stats;

import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import dev.inferbench.model.OnnxReader.Initializer;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.inferbench.model.stats.ShapeRules.attrInt;
import static dev.inferbench.model.stats.ShapeRules.attrInts;
import static dev.inferbench.model.stats.ShapeRules.norm;

/**
 * Shapes through If, Loop and Scan. Each body is inferred as a graph of its own that sees the values of the graphs
 * around it (ONNX's outer scope), at the shapes of its first iteration; the bodies are kept on the enclosing
 * {@link ShapeInference} for {@link MacCounter}, and so is how many times a loop body runs, when the file says.
 */
final class ControlFlow {
    private ControlFlow() {
    }

    static void infer(ShapeInference g, NodeProto n) {
        switch (n.getOpType()) {
            case "If" -> branches(g, n);
            case "Loop" -> loop(g, n);
            default -> scan(g, n);
        }
    }

    /** An If's output takes the then-branch's shape where known, else the else-branch's. */
    private static void branches(ShapeInference g, NodeProto n) {
        GraphProto then = Subgraphs.named(n, "then_branch");
        GraphProto other = Subgraphs.named(n, "else_branch");
        ShapeInference a = body(g, then, Map.of());
        ShapeInference b = body(g, other, Map.of());
        g.bodies.put(n, List.of(a, b));
        for (int o = 0; o < n.getOutputCount(); o++) {
            long[] s = a.shape(then.getOutput(o).getName());
            g.put(n.getOutput(o), s != null ? s : b.shape(other.getOutput(o).getName()));
        }
    }

    /** Loop(M, cond, carried...): its body takes (iteration, cond, carried...), gives (cond, carried..., scans...). */
    private static void loop(ShapeInference g, NodeProto n) {
        GraphProto body = Subgraphs.named(n, "body");
        long[] m = n.getInput(0).isEmpty() ? null : g.ints.get(n.getInput(0));
        long trips = m != null && m.length == 1 ? m[0] : -1;
        Map<String, long[]> in = new HashMap<>();
        in.put(body.getInput(0).getName(), new long[0]);
        in.put(body.getInput(1).getName(), new long[0]);
        int carried = n.getInputCount() - 2;
        for (int i = 0; i < carried; i++) {
            putKnown(in, body.getInput(i + 2).getName(), g.shape(n.getInput(i + 2)));
        }
        ShapeInference b = body(g, body, in);
        g.bodies.put(n, List.of(b));
        g.trips.put(n, trips);
        for (int o = 0; o < n.getOutputCount(); o++) {
            long[] s = b.shape(body.getOutput(o + 1).getName());
            g.put(n.getOutput(o), o < carried ? fixedPoint(s, g.shape(n.getInput(o + 2))) : stacked(s, trips, 0));
        }
    }

    /** Scan(states..., scanned...): the body takes one slice of each scanned input along its scan axis. */
    private static void scan(ShapeInference g, NodeProto n) {
        GraphProto body = Subgraphs.named(n, "body");
        int scanned = (int) attrInt(n, "num_scan_inputs", 0);
        int states = n.getInputCount() - scanned;
        long[] inAxes = attrInts(n, "scan_input_axes");
        long[] outAxes = attrInts(n, "scan_output_axes");
        Map<String, long[]> in = new HashMap<>();
        for (int i = 0; i < states; i++) {
            putKnown(in, body.getInput(i).getName(), g.shape(n.getInput(i)));
        }
        long trips = -1;
        for (int j = 0; j < scanned; j++) {
            long[] s = g.shape(n.getInput(states + j));
            if (s != null) {
                int axis = (int) norm(inAxes == null ? 0 : inAxes[j], s.length);
                trips = s[axis];
                putKnown(in, body.getInput(states + j).getName(), without(s, axis));
            }
        }
        ShapeInference b = body(g, body, in);
        g.bodies.put(n, List.of(b));
        g.trips.put(n, trips);
        for (int o = 0; o < n.getOutputCount(); o++) {
            long[] s = b.shape(body.getOutput(o).getName());
            int k = o - states;
            g.put(n.getOutput(o), o < states ? fixedPoint(s, g.shape(n.getInput(o)))
                    : stacked(s, trips, outAxes == null ? 0 : outAxes[k]));
        }
    }

    private static ShapeInference body(ShapeInference outer, GraphProto graph, Map<String, long[]> inputs) {
        List<Initializer> inits = graph.getInitializerList().stream()
                .map(t -> TensorValues.of(t.getName(), t)).toList();
        return new ShapeInference(outer, graph.getNodeList(), inits, inputs);
    }

    private static void putKnown(Map<String, long[]> into, String name, long[] shape) {
        if (shape != null) {
            into.put(name, shape);
        }
    }

    /** A carried value keeps its shape through every iteration only when one iteration leaves it unchanged. */
    private static long[] fixedPoint(long[] after, long[] before) {
        return after != null && Arrays.equals(after, before) ? after : null;
    }

    /** A scan output: one slice per iteration, stacked along {@code axis}. */
    private static long[] stacked(long[] slice, long trips, long axis) {
        if (slice == null || trips < 0) {
            return null;
        }
        int at = (int) norm(axis, slice.length + 1);
        long[] out = new long[slice.length + 1];
        System.arraycopy(slice, 0, out, 0, at);
        out[at] = trips;
        System.arraycopy(slice, at, out, at + 1, slice.length - at);
        return out;
    }

    private static long[] without(long[] s, int axis) {
        long[] out = new long[s.length - 1];
        System.arraycopy(s, 0, out, 0, axis);
        System.arraycopy(s, axis + 1, out, axis, s.length - axis - 1);
        return out;
    }
}
