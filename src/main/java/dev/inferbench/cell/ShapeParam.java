package dev.inferbench.cell;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code shape} parameter of a cell: {@code -p 'shape=x:3x640x640'}, {@code -p 'shape=height:640;width:480'}.
 * Each name is an input's, given its per-sample shape (the batch left out, as in {@code model.NAME.inputs}: the batch
 * is {@code batchSize}), or a symbolic dimension's, given one size wherever the model names a dimension so. Several
 * names in one value are separated by {@code ;}; a comma separates the values of several cells, as for any param.
 * Whether each name is one the model has is the matrix check's to say, which reads the file.
 */
public final class ShapeParam {
    /** The value of a cell that sets no shape: the registry's and the file's apply. */
    public static final String NONE = "none";

    private ShapeParam() {
    }

    /** By name, in the order given; empty for {@link #NONE}. */
    public static Map<String, long[]> parse(String value) throws BenchException {
        Map<String, long[]> out = new LinkedHashMap<>();
        String text = value == null ? NONE : value.strip();
        if (text.isEmpty() || text.equals(NONE)) {
            return out;
        }
        for (String part : text.split(";", -1)) {
            int colon = TensorSpec.nameEnd(part);
            String name = colon < 0 ? "" : part.substring(0, colon).strip();
            long[] dims = colon < 0 ? null : dims(part.substring(colon + 1));
            if (name.isEmpty() || dims == null) {
                throw new BenchException("shape '" + value + "' is not a list of name:DxD; expected e.g. -p shape="
                        + "x:3x640x640 (batch left out) or -p shape=height:640, several joined by ';'");
            }
            if (out.put(name, dims) != null) {
                throw new BenchException("shape '" + value + "' gives '" + name + "' twice; expected each input or"
                        + " dimension once");
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** {@code x:3x640x640;height:640}: the form {@link #parse} reads, for messages and keys. */
    public static String text(Map<String, long[]> shapes) {
        if (shapes.isEmpty()) {
            return NONE;
        }
        return shapes.entrySet().stream().map(e -> e.getKey() + ":" + Arrays.stream(e.getValue())
                .mapToObj(Long::toString).collect(Collectors.joining("x"))).collect(Collectors.joining(";"));
    }

    private static long[] dims(String text) {
        String[] parts = text.strip().split("x", -1);
        long[] dims = new long[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                dims[i] = Long.parseLong(parts[i].strip());
                if (dims[i] <= 0) {
                    return null;
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return dims;
    }
}
