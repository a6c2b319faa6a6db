package dev.inferbench.engine;

import dev.inferbench.BenchException;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * One link of a prepared input's {@link StateFeed}: the input's own direct buffer, which ONNX Runtime reads in place
 * on every run, and into which each run's output is copied before the next.
 */
final class StateCopy {
    private final StateFeed.Link link;
    private final ByteBuffer into;
    private final long[] shape;
    /** The pinned output's buffer, found once: a measured call allocates nothing to copy the state. */
    private ByteBuffer pinned;

    StateCopy(StateFeed.Link link, ByteBuffer into, long[] shape) {
        this.link = link;
        this.into = into;
        this.shape = shape;
    }

    String output() {
        return link.output();
    }

    /** The output's values into the input; an output of another size is refused (on the first run). */
    void from(ByteBuffer output, long[] outputShape) throws BenchException {
        int bytes = output.capacity();
        if (bytes != into.capacity()) {
            throw new BenchException("state: output '" + link.output() + "' " + Arrays.toString(outputShape)
                    + " does not fit input '" + link.input() + "' " + Arrays.toString(shape) + "; expected an"
                    + " output of the input's shape (-p shape=" + link.input() + ":...)");
        }
        into.put(0, output, 0, bytes);
    }

    /** The same from the pinned outputs ORT wrote this run. */
    void from(PinnedOutputs outputs) throws BenchException {
        if (pinned == null) {
            from(outputs.bytes(link.output()), outputs.shapeOf(link.output()));
            pinned = outputs.bytes(link.output());
            return;
        }
        into.put(0, pinned, 0, into.capacity());
    }
}
