package dev.inferbench.input.data;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A NumPy {@code .npy} array (format versions 1-3, C order; little-endian float32, float16, int64 or int32, or bool,
 * uint8 or int8, the element types of model inputs): the header is
 * a Python dict literal such as {@code {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }}.
 */
public final class NpyFile {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");
    private static final Pattern SIZE = Pattern.compile("\\d+");
    /** The digits of the largest size parsed; a longer one is past what any buffer holds. */
    private static final int SIZE_DIGITS = 18;
    private static final int QUOTED = 40;

    private NpyFile() {
    }

    public static HostTensor read(Path file, String name) throws BenchException {
        byte[] all = bytes(file);
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if (all.length < 10 || !Arrays.equals(Arrays.copyOf(all, 6), MAGIC)) {
            throw malformed(file, "it does not start with the NumPy magic \\x93NUMPY");
        }
        int major = Byte.toUnsignedInt(all[6]);
        if (major < 1 || major > 3) {
            throw malformed(file, "its format version is " + major + "." + Byte.toUnsignedInt(all[7]));
        }
        int start = major == 1 ? 10 : 12;
        if (all.length < start) {
            throw malformed(file, "it ends after " + all.length + " bytes, inside its " + start + "-byte preamble");
        }
        long headerLength = major == 1 ? Short.toUnsignedInt(b.getShort(8)) : Integer.toUnsignedLong(b.getInt(8));
        if (headerLength > all.length - start) {
            throw malformed(file, "its header length " + headerLength + " exceeds the file's " + all.length + " bytes");
        }
        String header = new String(all, start, (int) headerLength, StandardCharsets.ISO_8859_1);
        String descr = find(DESCR, header, file, "descr");
        if ("True".equals(find(FORTRAN, header, file, "fortran_order"))) {
            throw bad(file, "it is in Fortran order");
        }
        DType type = switch (descr) {
            case "<f4" -> DType.FLOAT32;
            case "<f2" -> DType.FLOAT16;
            case "<i8" -> DType.INT64;
            case "<i4" -> DType.INT32;
            case "|b1", "<b1" -> DType.BOOL;
            case "|u1", "<u1" -> DType.UINT8;
            case "|i1", "<i1" -> DType.INT8;
            default -> throw bad(file, "its dtype is '" + printable(descr) + "'" + (descr.equals("<f8")
                    ? " (float64, NumPy's default: save it with a.astype(numpy.float32))" : ""));
        };
        long[] shape = shape(find(SHAPE, header, file, "shape"), file);
        int width = type.bytes();
        long expected = HostTensors.elements(shape, width, file.toString()) * width;
        int dataStart = start + (int) headerLength;
        if (all.length - dataStart != expected) {
            throw new BenchException(file + " is not a complete .npy array: shape " + Arrays.toString(shape)
                    + " needs " + expected + " bytes of data, the file has " + (all.length - dataStart)
                    + "; expected the data its header describes");
        }
        return HostTensors.of(name, type, shape, ByteBuffer.wrap(all, dataStart, (int) expected).slice());
    }

    private static byte[] bytes(Path file) throws BenchException {
        try {
            long size = Files.size(file);
            if (size > HostTensors.MAX_BYTES) {
                throw malformed(file, "it is " + size + " bytes, more than one buffer holds (" + HostTensors.MAX_BYTES
                        + ")");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage() + "; expected a .npy file", e);
        }
    }

    /** The sizes of a shape tuple's text such as {@code 1, 3, 224, 224,}: whole numbers, none negative. */
    private static long[] shape(String tuple, Path file) throws BenchException {
        String[] parts = tuple.trim().isEmpty() ? new String[0] : tuple.split(",", -1);
        long[] shape = new long[parts.length];
        int n = 0;
        for (int i = 0; i < parts.length; i++) {
            String d = parts[i].trim();
            if (d.isEmpty() && i == parts.length - 1 && i > 0) {
                continue;
            }
            if (!SIZE.matcher(d).matches()) {
                throw malformed(file, "its shape has the size '" + printable(d) + "'");
            }
            if (d.length() > SIZE_DIGITS) {
                throw malformed(file, "its shape has the size " + printable(d) + ", more than one buffer holds");
            }
            shape[n++] = Long.parseLong(d);
        }
        return Arrays.copyOf(shape, n);
    }

    private static String find(Pattern p, String header, Path file, String key) throws BenchException {
        Matcher m = p.matcher(header);
        if (!m.find()) {
            throw malformed(file, "its header has no '" + key + "'");
        }
        return m.group(1);
    }

    /** {@code text} as it can stand in a one-line message: control and non-ASCII characters as '?', cut short. */
    private static String printable(String text) {
        String cut = text.length() > QUOTED ? text.substring(0, QUOTED) + "..." : text;
        return cut.replaceAll("[^\\x20-\\x7e]", "?");
    }

    private static BenchException malformed(Path file, String why) {
        return new BenchException(file + " is not a .npy array: " + why + "; expected a .npy file of format version 1,"
                + " 2 or 3");
    }

    private static BenchException bad(Path file, String why) {
        return new BenchException(file + " is not a usable .npy array: " + why
                + "; expected float32 ('<f4'), float16 ('<f2'), int64 ('<i8'), int32 ('<i4'), bool ('|b1'), uint8"
                + " ('|u1') or int8 ('|i1'), little-endian, in C order");
    }
}
