package dev.inferbench.tensor;

import java.util.Arrays;
import java.util.Locale;

/**
 * A model input or output as the model declares it; {@code -1} marks a dynamic dimension (usually the batch).
 *
 * @param dimNames the symbolic name of each dimension ({@code height}, {@code seq}), "" where the model names none;
 *                 users set dynamic dimensions by these names, so an input built without them simply has none
 */
public record TensorSpec(String name, DType type, long[] shape, String[] dimNames) {

    public TensorSpec {
        if (dimNames.length != shape.length) {
            throw new IllegalArgumentException(name + ": " + dimNames.length + " dimension names for rank " + shape.length);
        }
    }

    /** A spec whose dimensions have no names. */
    public TensorSpec(String name, DType type, long[] shape) {
        this(name, type, shape, unnamed(shape.length));
    }

    private static String[] unnamed(int rank) {
        String[] names = new String[rank];
        Arrays.fill(names, "");
        return names;
    }

    /**
     * Where the name ends in a {@code NAME:VALUE} the user wrote ({@code -p shape}, {@code values}, {@code state}): at
     * the last colon that is not one of a pair, since exporters name tensors {@code onnx::Flatten_0}; -1 for none.
     */
    public static int nameEnd(String part) {
        for (int i = part.length() - 1; i >= 0; i--) {
            boolean pair = i > 0 && part.charAt(i - 1) == ':' || i + 1 < part.length() && part.charAt(i + 1) == ':';
            if (part.charAt(i) == ':' && !pair) {
                return i;
            }
        }
        return -1;
    }

    /** The name of dimension {@code i}, "" when it has none. */
    public String dimName(int i) {
        return dimNames[i] == null ? "" : dimNames[i];
    }

    /** Element types inferbench can create inputs of; OTHER is any other (strings, sequences, maps...). */
    public enum DType {
        FLOAT32(4), FLOAT16(2), BFLOAT16(2), INT64(8), INT32(4), BOOL(1), UINT8(1), INT8(1), OTHER(0);

        private final int bytes;

        DType(int bytes) {
            this.bytes = bytes;
        }

        /** Bytes per element; 0 for OTHER. */
        public int bytes() {
            return bytes;
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Override
    public String toString() {
        return name + ":" + type.label() + Arrays.toString(shape);
    }
}
