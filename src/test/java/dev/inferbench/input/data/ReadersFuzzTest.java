package dev.inferbench.input.data;

import ai.onnx.proto.OnnxMl.TensorProto;
import com.google.protobuf.ByteString;
import dev.inferbench.input.data.FileFuzz.Outcome;
import dev.inferbench.run.Mutator;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import static dev.inferbench.input.data.FileFuzz.MUTANTS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every reader of an input file a user supplies (.npy arrays, TensorProto .pb files, ONNX test sets, image folders)
 * fed seeded mutants of a valid file: each is accepted or refused in one line, nothing else is thrown and nothing is
 * written (see {@link FileFuzz}). Random bytes rarely reach the fields a reader sizes its work by, so part of the
 * mutants put extreme values there on purpose: header lengths, shapes, dims, image widths and heights.
 */
class ReadersFuzzTest {
    private static final String HEADER = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    private static final String[] SHAPES = {"()", "(0,)", "(-1, 6)", "(6, -1)", "(9223372036854775807,)",
            "(9223372036854775807, 2)", "(4294967296, 4294967296)", "(3037000500, 3037000500)",
            "(99999999999999999999,)", "(2147483647, 2147483647, 0)", "(0, 9223372036854775807)", "(6,,)", "(,)",
            "(1e3,)", "(0x10,)", "(6", "(536870912,)", "(536870911,)", "(6,)", "(3, 2)", "(1, 2, 3)"};
    private static final long[] DIMS = {-1, 0, 1, 2, 3, 6, 1L << 31, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE,
            3037000500L, Integer.MAX_VALUE, 536870912};
    private static final int[] DATA_TYPES = {1, 6, 7, 0, 10, 11, 99, -1};

    @TempDir
    Path tmp;

    @Test
    void npyMutantsAreReadOrRefusedInOneLine() throws IOException {
        byte[] v1 = npy(1, HEADER, new byte[24]);
        byte[] v2 = npy(2, HEADER.replace("<f4", "<i8").replace("(2, 3)", "(3,)"), new byte[24]);
        Outcome o = FileFuzz.run(tmp.resolve("npy"), MUTANTS, (dir, seed) -> {
            byte[] mutant = switch ((int) (seed % 4)) {
                case 0 -> ByteMutator.mutate(v1, seed, 8);
                case 1 -> ByteMutator.mutate(v2, seed, 8);
                case 2 -> npy(1, Mutator.mutate(HEADER, seed), new byte[24]);
                default -> npy(1 + (int) (seed % 3), HEADER.replace("(2, 3)", SHAPES[(int) (seed / 4 % SHAPES.length)]),
                        new byte[24]);
            };
            return Files.write(dir.resolve("x-" + seed + ".npy"), mutant);
        }, file -> whole(NpyFile.read(file, "x")));
        assertMixed(o, "x.npy");
    }

    @Test
    void tensorProtoMutantsAreReadOrRefusedInOneLine() throws IOException {
        byte[] raw = floats(2, 3).toByteArray();
        byte[] typed = TensorProto.newBuilder().setDataType(TensorProto.DataType.INT64.getNumber()).addDims(3)
                .addInt64Data(7).addInt64Data(8).addInt64Data(9).build().toByteArray();
        Outcome o = FileFuzz.run(tmp.resolve("pb"), MUTANTS, (dir, seed) -> {
            byte[] mutant = switch ((int) (seed % 3)) {
                case 0 -> ByteMutator.mutate(raw, seed);
                case 1 -> ByteMutator.mutate(typed, seed);
                default -> lying(new SplittableRandom(seed)).toByteArray();
            };
            return Files.write(dir.resolve("input_" + seed + ".pb"), mutant);
        }, file -> whole(TensorProtoFile.read(file)));
        assertMixed(o, "input_0.pb");
    }

    @Test
    void testSetMutantsAreReadOrRefusedInOneLine() throws IOException {
        byte[] pb = floats(1, 2).toByteArray();
        String[] numbers = {"0", "1", "2", "00", "01", "2147483647", "2147483648", "4294967296",
                "99999999999999999999", "9223372036854775808", "000000000000000000000001"};
        Outcome o = FileFuzz.run(tmp.resolve("set"), MUTANTS, (root, seed) -> {
            Path dir = emptied(root.resolve("test_data_set_0"));
            SplittableRandom rnd = new SplittableRandom(seed);
            String[] names = {"input_0.pb", "input_1.pb", "output_0.pb"};
            int renamed = rnd.nextInt(names.length + 1);
            if (renamed < names.length) {
                names[renamed] = (rnd.nextBoolean() ? "input_" : "output_") + numbers[rnd.nextInt(numbers.length)]
                        + ".pb";
            }
            int corrupted = rnd.nextInt(names.length + 1);
            for (int i = 0; i < names.length; i++) {
                Files.write(dir.resolve(names[i]), i == corrupted ? ByteMutator.mutate(pb, seed) : pb);
            }
            return dir;
        }, dir -> TestSet.read(dir).inputs().forEach(ReadersFuzzTest::whole));
        assertMixed(o, "a test set");
    }

    @Test
    void imageMutantsAreReadOrRefusedInOneLine() throws IOException {
        BufferedImage img = new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 30; y++) {
            for (int x = 0; x < 40; x++) {
                img.setRGB(x, y, (x * 6) << 16 | (y * 8) << 8 | (x + y));
            }
        }
        byte[] png = encoded(img, "png");
        byte[] bmp = encoded(img, "bmp");
        byte[] jpg = encoded(img, "jpg");
        int sof = sof(jpg);
        List<TensorSpec> spec = List.of(new TensorSpec("image", DType.FLOAT32, new long[]{-1, 3, 8, 8}));
        Outcome o = FileFuzz.run(tmp.resolve("img"), MUTANTS, (root, seed) -> {
            Path cls = emptied(root.resolve("images").resolve("cat"));
            switch ((int) (seed % 6)) {
                case 0 -> Files.write(cls.resolve(seed + ".png"), ByteMutator.mutate(png, seed, 16, 20));
                case 3 -> Files.write(cls.resolve(seed + ".png"), claiming(png, new SplittableRandom(seed)));
                case 1, 4 -> Files.write(cls.resolve(seed + ".bmp"), ByteMutator.mutate(bmp, seed, 18, 22));
                default -> Files.write(cls.resolve(seed + ".jpg"), ByteMutator.mutate(jpg, seed, sof + 5, sof + 7));
            }
            return cls.getParent();
        }, dir -> DataSource.images(ImageFolder.read(dir), "m", spec, 1, 0));
        assertMixed(o, "a one-image folder (png, bmp, jpg; a sixth with a png header claiming extreme sizes)");
    }

    /**
     * An accepted tensor is what its shape says: no negative dimension, as many values as the dimensions multiply
     * to. A reader that multiplied sizes that wrap (or two negative ones) would accept a shape its data does not fill.
     */
    private static void whole(HostTensor t) {
        long n = 1;
        boolean wrapped = false;
        for (long d : t.shape()) {
            wrapped |= d < 0 || (d > 0 && n > Long.MAX_VALUE / d);
            n = d == 0 || n == 0 ? 0 : n * d;
        }
        if (Arrays.stream(t.shape()).anyMatch(d -> d == 0)) {
            wrapped = Arrays.stream(t.shape()).anyMatch(d -> d < 0);
        }
        if (wrapped || n != t.data().duplicate().rewind().remaining()) {
            throw new IllegalStateException("accepted shape " + Arrays.toString(t.shape()) + " over "
                    + t.data().capacity() + " values");
        }
    }

    /** {@code dir}, created or with the last mutant's files deleted: cheaper on ext4 than a folder per mutant. */
    private static Path emptied(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                Files.delete(p);
            }
        }
        return dir;
    }

    /** Both outcomes happen, or the mutants did not reach past the first check (or never broke the file). */
    private static void assertMixed(Outcome o, String what) {
        assertThat(o.escapes()).as(o.summary(what)).isEmpty();
        assertThat(o.refused()).as(o.summary(what)).isPositive();
        assertThat(o.accepted()).as(o.summary(what)).isPositive();
    }

    static byte[] npy(int major, String header, byte[] data) {
        int preamble = major == 1 ? 10 : 12;
        String padded = header + " ".repeat(63 - (preamble + header.length()) % 64) + "\n";
        byte[] h = padded.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(preamble + h.length + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
        if (major == 1) {
            b.putShort((short) h.length);
        } else {
            b.putInt(h.length);
        }
        return b.put(h).put(data).array();
    }

    private static TensorProto floats(long... shape) {
        TensorProto.Builder t = TensorProto.newBuilder().setName("x")
                .setDataType(TensorProto.DataType.FLOAT.getNumber());
        long n = 1;
        for (long d : shape) {
            t.addDims(d);
            n *= d;
        }
        return t.setRawData(ByteString.copyFrom(new byte[(int) n * 4])).build();
    }

    /** A well-formed TensorProto whose dims, type and data need not agree. */
    private static TensorProto lying(SplittableRandom rnd) {
        TensorProto.Builder t = TensorProto.newBuilder().setDataType(DATA_TYPES[rnd.nextInt(DATA_TYPES.length)]);
        for (int i = rnd.nextInt(5); i > 0; i--) {
            t.addDims(DIMS[rnd.nextInt(DIMS.length)]);
        }
        switch (rnd.nextInt(4)) {
            case 0 -> t.setRawData(ByteString.copyFrom(new byte[rnd.nextInt(64)]));
            case 1 -> t.setRawData(ByteString.copyFrom(new byte[24]));
            case 2 -> {
                for (int i = rnd.nextInt(8); i > 0; i--) {
                    t.addFloatData(i).addInt64Data(i).addInt32Data(i);
                }
            }
            default -> t.setDataLocation(TensorProto.DataLocation.EXTERNAL);
        }
        return t.build();
    }

    private static byte[] encoded(BufferedImage img, String format) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ImageIO.write(img, format, out)).as("a %s writer", format).isTrue();
        return out.toByteArray();
    }

    /**
     * The PNG with its header's width and height replaced, its checksum made good again, so that a decoder that
     * checks it still meets sizes that pass 2^31 bytes, or come near, from a file of a few hundred bytes.
     */
    private static byte[] claiming(byte[] png, SplittableRandom rnd) {
        byte[] b = png.clone();
        int[] sizes = {1, 30, 0x4000, 0x8000, 30_000, 46_341, 65_535, 1 << 20, Integer.MAX_VALUE};
        ByteBuffer.wrap(b).putInt(16, sizes[rnd.nextInt(sizes.length)]).putInt(20, sizes[rnd.nextInt(sizes.length)]);
        CRC32 crc = new CRC32();
        crc.update(b, 12, 17);
        ByteBuffer.wrap(b).putInt(29, (int) crc.getValue());
        return b;
    }

    /** Where a baseline JPEG's frame header (height, then width, at +5 and +7) starts. */
    private static int sof(byte[] jpg) {
        for (int i = 0; i + 1 < jpg.length; i++) {
            if ((jpg[i] & 0xFF) == 0xFF && (jpg[i + 1] & 0xFF) == 0xC0) {
                return i;
            }
        }
        throw new AssertionError("no baseline frame header in the JPEG ImageIO wrote");
    }
}
