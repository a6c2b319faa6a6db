package dev.inferbench.input;

import dev.inferbench.BenchException;
import dev.inferbench.input.InputValues.Constant;
import dev.inferbench.input.InputValues.Given;
import dev.inferbench.input.InputValues.Range;
import dev.inferbench.input.InputValues.Rule;
import dev.inferbench.tensor.Half;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An input made from its {@code -p values} rule. Integer and bool inputs take whole numbers (bool: 0 or 1, a range
 * of them gives both); a float16 input holds the nearest half. {@link #check} says what does not fit the input before
 * any fork; {@link #tensor} makes it in the fork.
 */
final class ValueFill {
    private ValueFill() {
    }

    static void check(String model, TensorSpec spec, long[] shape, Rule rule) throws BenchException {
        DType type = spec.type();
        boolean whole = type == DType.INT64 || type == DType.INT32 || type == DType.BOOL || type == DType.UINT8
                || type == DType.INT8;
        String where = "model '" + model + "' input '" + spec.name() + "' (" + type.label() + ")";
        if (rule instanceof Constant c) {
            if (whole && c.value() != Math.rint(c.value()) || type == DType.BOOL && c.value() != 0 && c.value() != 1) {
                throw new BenchException(where + " cannot hold " + c.value() + "; expected "
                        + (type == DType.BOOL ? "0 or 1" : "a whole number"));
            }
            bytes(where, type, c.value(), c.value());
        } else if (rule instanceof Range r) {
            if (whole && (r.low() != Math.rint(r.low()) || r.high() != Math.rint(r.high()))) {
                throw new BenchException(where + " takes whole numbers; got the range " + r.low() + ".." + r.high()
                        + "; expected e.g. 0..100");
            }
            bytes(where, type, r.low(), r.high());
        } else if (rule instanceof Given g) {
            long[] sample = shape.length == 0 ? shape : Arrays.copyOfRange(shape, 1, shape.length);
            if (g.tensor().type() != type) {
                throw new BenchException(where + ": " + g.file() + " holds " + g.tensor().type().label()
                        + "; expected an array of " + type.label());
            }
            if (!Arrays.equals(g.tensor().shape(), shape) && !Arrays.equals(g.tensor().shape(), sample)) {
                throw new BenchException(where + ": " + g.file() + " has the shape "
                        + Arrays.toString(g.tensor().shape()) + "; expected " + Arrays.toString(shape)
                        + " or one sample's " + Arrays.toString(sample));
            }
        }
        if (type == DType.BFLOAT16 || type == DType.OTHER) {
            throw new BenchException(where + " takes no values inferbench writes; expected float32, float16, int64,"
                    + " int32, bool, uint8 or int8");
        }
    }

    /** A uint8 or int8 input holds what a byte of its kind holds; a larger value would wrap round. */
    private static void bytes(String where, DType type, double low, double high) throws BenchException {
        double min = type == DType.INT8 ? -128 : 0;
        double max = type == DType.INT8 ? 127 : 255;
        if ((type == DType.UINT8 || type == DType.INT8) && (low < min || high > max)) {
            throw new BenchException(where + " holds " + (long) min + " to " + (long) max + "; got "
                    + (low == high ? Double.toString(low) : low + ".." + high));
        }
    }

    static HostTensor tensor(String model, TensorSpec spec, long[] shape, int n, Rule rule, SplittableRandom rnd)
            throws BenchException {
        check(model, spec, shape, rule);
        int width = spec.type().bytes();
        ByteBuffer bytes = ByteBuffer.allocateDirect(n * width).order(ByteOrder.nativeOrder());
        if (rule instanceof Given g) {
            ByteBuffer from = g.tensor().bytes();
            int length = from.remaining();
            for (int at = 0; at < n * width; at += length) {
                bytes.put(at, from, 0, length); // one sample's array repeats over the batch
            }
        } else {
            for (int i = 0; i < n; i++) {
                put(bytes, spec.type(), i, value(rule, spec.type(), rnd));
            }
        }
        return new HostTensor(spec.name(), spec.type(), shape, view(bytes, spec.type()));
    }

    private static double value(Rule rule, DType type, SplittableRandom rnd) {
        if (rule instanceof Range r) {
            boolean whole = type != DType.FLOAT32 && type != DType.FLOAT16;
            return whole ? rnd.nextLong((long) r.low(), (long) r.high() + 1) : r.low() + rnd.nextDouble() * (r.high() - r.low());
        }
        return ((Constant) rule).value();
    }

    private static void put(ByteBuffer b, DType type, int i, double v) {
        switch (type) {
            case FLOAT32 -> b.putFloat(i * 4, (float) v);
            case FLOAT16 -> b.putShort(i * 2, Half.fromFloat((float) v));
            case INT64 -> b.putLong(i * 8, (long) v);
            case INT32 -> b.putInt(i * 4, (int) v);
            default -> b.put(i, (byte) v);
        }
    }

    /** The typed view the engines take, as SyntheticInputs makes them. */
    private static Buffer view(ByteBuffer b, DType type) {
        return switch (type) {
            case FLOAT32 -> b.asFloatBuffer();
            case FLOAT16 -> b.asShortBuffer();
            case INT64 -> b.asLongBuffer();
            case INT32 -> b.asIntBuffer();
            default -> b;
        };
    }
}
