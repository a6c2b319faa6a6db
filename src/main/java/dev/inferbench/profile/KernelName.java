package dev.inferbench.profile;

import dev.inferbench.model.stats.LayerName;

import java.util.ArrayList;
import java.util.List;

/**
 * How a kernel is shown in a joined flame graph: the module and the layer of the model file it came from (as
 * {@link LayerTimes} traces ORT's renamed nodes back) and its operator, {@code Conv…Relu} where ORT fused the file's
 * Conv up to a Relu.
 */
record KernelName(String module, String layer, String operator) {
    /**
     * The converter's suffix for an inlined frame, which its HTML draws in aqua: the frames the join inserts stand
     * out from the library's red ones. It is not shown in the graph; collapsed stacks carry it.
     */
    static final String INSERTED = "_[i]";

    /**
     * The frames, outermost first: the module and each module holding it ({@code [layer1]}, {@code [layer1.0]}), so
     * that a block's time adds up in one frame, then the layer ({@code [layer1.0.relu]}) and the operator.
     */
    List<String> frames() {
        List<String> frames = new ArrayList<>();
        String shown = LayerName.shown(module);
        for (int i = 1; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if ((c == '.' || c == '/') && i + 1 < shown.length()) {
                frames.add("[" + frame(shown.substring(0, i)) + "]" + INSERTED);
            }
        }
        frames.add("[" + frame(shown) + "]" + INSERTED);
        frames.add("[" + frame(layer) + "]" + INSERTED);
        frames.add(frame(operator) + INSERTED);
        return frames;
    }

    /** A name as one frame of a collapsed stack: no separators, no spaces before the count. */
    static String frame(String name) {
        return name.replace(';', '_').replace(' ', '_');
    }
}
