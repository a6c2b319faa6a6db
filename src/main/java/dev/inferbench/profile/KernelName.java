package dev.inferbench.profile;

import dev.inferbench.model.stats.LayerName;

import java.util.List;

/**
 * How a kernel is shown in a joined flame graph: the module and the layer of the model file it came from (as
 * {@link LayerTimes} traces ORT's renamed nodes back) and its operator, {@code Conv…Relu} where ORT fused the file's
 * Conv up to a Relu.
 */
record KernelName(String module, String layer, String operator) {

    /** The frames, outermost first: {@code [layer1.0]}, {@code [layer1.0.relu]}, {@code Conv…Relu}. */
    List<String> frames() {
        return List.of("[" + frame(LayerName.shown(module)) + "]", "[" + frame(layer) + "]", frame(operator));
    }

    /** A name as one frame of a collapsed stack: no separators, no spaces before the count. */
    static String frame(String name) {
        return name.replace(';', '_').replace(' ', '_');
    }
}
