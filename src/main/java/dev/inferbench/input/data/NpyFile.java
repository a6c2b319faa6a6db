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
 * A NumPy {@code .npy} array (format versions 1-3, C order, little-endian float32, int64 or int32): the header is
 * a Python dict literal such as {@code {'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 224, 224), }}.
 */
public final class NpyFile {
    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    private NpyFile() {
    }

    public static HostTensor read(Path file, String name) throws BenchException {
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BenchException("cannot read " + file + ": " + e.getMessage() + "; expected a .npy file", e);
        }
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        if (all.length < 10 || !Arrays.equals(Arrays.copyOf(all, 6), MAGIC)) {
            throw bad(file, "it does not start with the NumPy magic \\x93NUMPY");
        }
        int major = all[6];
        int headerLength = major == 1 ? Short.toUnsignedInt(b.getShort(8)) : b.getInt(8);
        int start = major == 1 ? 10 : 12;
        if (start + headerLength > all.length) {
            throw bad(file, "its header is truncated");
        }
        String header = new String(all, start, headerLength, StandardCharsets.ISO_8859_1);
        String descr = find(DESCR, header, file, "descr");
        if ("True".equals(find(FORTRAN, header, file, "fortran_order"))) {
            throw bad(file, "it is in Fortran order");
        }
        DType type = switch (descr) {
            case "<f4" -> DType.FLOAT32;
            case "<i8" -> DType.INT64;
            case "<i4" -> DType.INT32;
            default -> throw bad(file, "its dtype is '" + descr + "'");
        };
        String dims = find(SHAPE, header, file, "shape").trim();
        long[] shape = dims.isEmpty() ? new long[0] : Arrays.stream(dims.split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
        int width = type == DType.INT64 ? 8 : 4;
        long expected = HostTensors.elements(shape) * width;
        int dataStart = start + headerLength;
        if (all.length - dataStart != expected) {
            throw bad(file, "shape " + Arrays.toString(shape) + " needs " + expected + " bytes of data, the file has "
                    + (all.length - dataStart));
        }
        return HostTensors.of(name, type, shape, ByteBuffer.wrap(all, dataStart, (int) expected).slice());
    }

    private static String find(Pattern p, String header, Path file, String key) throws BenchException {
        Matcher m = p.matcher(header);
        if (!m.find()) {
            throw bad(file, "its header has no '" + key + "'");
        }
        return m.group(1);
    }

    private static BenchException bad(Path file, String why) {
        return new BenchException(file + " is not a usable .npy array: " + why
                + "; expected little-endian float32 ('<f4'), int64 ('<i8') or int32 ('<i4') in C order");
    }
}
