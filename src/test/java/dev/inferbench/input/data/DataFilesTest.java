package dev.inferbench.input.data;

import org.assertj.core.data.Offset;
import org.assertj.core.api.Assertions;
import com.google.protobuf.ByteString;
import dev.inferbench.input.InputSpec;
import ai.onnx.proto.OnnxMl.TensorProto;
import dev.inferbench.BenchException;
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
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataFilesTest {
    @TempDir
    Path dir;

    static void writePb(Path file, String name, long[] shape, float[] values) throws IOException {
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(TensorProto.DataType.FLOAT.getNumber());
        for (long d : shape) {
            t.addDims(d);
        }
        ByteBuffer raw = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        raw.asFloatBuffer().put(values);
        t.setRawData(ByteString.copyFrom(raw));
        Files.write(file, t.build().toByteArray());
    }

    static void writeNpy(Path file, String descr, long[] shape, byte[] data) throws IOException {
        StringBuilder dims = new StringBuilder();
        for (long d : shape) {
            dims.append(d).append(", ");
        }
        String header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
        int pad = 64 - (10 + header.length() + 1) % 64;
        header = header + " ".repeat(pad) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[]{(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        out.write(header.length() & 0xFF);
        out.write(header.length() >> 8);
        out.write(header.getBytes(StandardCharsets.ISO_8859_1));
        out.write(data);
        Files.write(file, out.toByteArray());
    }

    private static byte[] floatBytes(float... v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    @Test
    void aTensorProtoFileReadsBackItsShapeAndValues() throws Exception {
        writePb(dir.resolve("input_0.pb"), "x", new long[]{2, 3}, new float[]{1, 2, 3, 4, 5, 6});
        HostTensor t = TensorProtoFile.read(dir.resolve("input_0.pb"));
        assertThat(t.name()).isEqualTo("x");
        assertThat(t.shape()).containsExactly(2, 3);
        assertThat(HostTensors.toFloats(t)).containsExactly(1, 2, 3, 4, 5, 6);
    }

    @Test
    void int64TensorsInTheTypedFieldAreReadToo() throws Exception {
        Files.write(dir.resolve("ids.pb"), TensorProto.newBuilder().setDataType(TensorProto.DataType.INT64.getNumber())
                .addDims(3).addInt64Data(7).addInt64Data(8).addInt64Data(9).build().toByteArray());
        HostTensor t = TensorProtoFile.read(dir.resolve("ids.pb"));
        LongBuffer l = (LongBuffer) t.data();
        assertThat(t.type()).isEqualTo(DType.INT64);
        assertThat(new long[]{l.get(0), l.get(1), l.get(2)}).containsExactly(7, 8, 9);
    }

    @Test
    void aTestSetWithAGapOrNoInputsIsRefusedInOneLine() throws Exception {
        Path set = Files.createDirectories(dir.resolve("test_data_set_0"));
        writePb(set.resolve("input_0.pb"), "x", new long[]{1}, new float[]{1});
        writePb(set.resolve("output_1.pb"), "y", new long[]{1}, new float[]{1});
        assertThatThrownBy(() -> TestSet.read(set)).isInstanceOf(BenchException.class)
                .hasMessageContaining("has no output_0.pb but has output_1.pb");
        Path empty = Files.createDirectories(dir.resolve("test_data_set_1"));
        assertThatThrownBy(() -> TestSet.read(empty)).hasMessageContaining("has no input_0.pb");
        Files.write(set.resolve("output_0.pb"), new byte[]{1, 2, 3});
        assertThatThrownBy(() -> TestSet.read(set)).hasMessageContaining("is not a serialized ONNX TensorProto");
    }

    @Test
    void aNpyFileReadsBackAndAWrongDtypeOrShapeIsRefused() throws Exception {
        Path f = dir.resolve("x.npy");
        writeNpy(f, "<f4", new long[]{1, 4}, floatBytes(0.5f, -1, 2, 3));
        HostTensor t = NpyFile.read(f, "input");
        assertThat(t.shape()).containsExactly(1, 4);
        assertThat(HostTensors.toFloats(t)).containsExactly(0.5f, -1, 2, 3);
        List<TensorSpec> spec = List.of(new TensorSpec("input", DType.FLOAT32, new long[]{-1, 4}));
        assertThat(DataSource.batch(f.toString(), new InputSpec("m", f, Map.of(), 1, 128, 1), spec)).hasSize(1);
        assertThatThrownBy(() -> DataSource.batch(f.toString(), new InputSpec("m", f, Map.of(), 1, 128, 1),
                List.of(new TensorSpec("input", DType.FLOAT32, new long[]{-1, 5}))))
                .isInstanceOf(BenchException.class)
                .hasMessage("data '" + f + "' input 0 is float32[1, 4]; model 'm' input 'input' expects float32[-1, 5]"
                        + " with batch 1");
        Path f64 = dir.resolve("d.npy");
        writeNpy(f64, "<f8", new long[]{1}, new byte[8]);
        assertThatThrownBy(() -> NpyFile.read(f64, "x")).hasMessageContaining("its dtype is '<f8' (float64, NumPy's"
                + " default: save it with a.astype(numpy.float32))");
        Path shortData = dir.resolve("s.npy");
        writeNpy(shortData, "<f4", new long[]{2, 2}, floatBytes(1, 2, 3));
        assertThatThrownBy(() -> NpyFile.read(shortData, "x")).hasMessageContaining("needs 16 bytes of data, the file has 12");
    }

    /** The element types of model inputs besides float32 and the integers: each read as the engines take it. */
    @Test
    void aNpyFileOfHalvesBoolsOrBytesReadsAsItsType() throws Exception {
        Path half = dir.resolve("h.npy");
        ByteBuffer halves = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                .putShort(dev.inferbench.tensor.Half.fromFloat(1.5f)).putShort(dev.inferbench.tensor.Half.fromFloat(-2));
        writeNpy(half, "<f2", new long[]{2}, halves.array());
        HostTensor h = NpyFile.read(half, "x");
        assertThat(h.type()).isEqualTo(DType.FLOAT16);
        java.nio.ShortBuffer s = (java.nio.ShortBuffer) h.data();
        assertThat(dev.inferbench.tensor.Half.toFloat(s.get(0))).isEqualTo(1.5f);
        assertThat(dev.inferbench.tensor.Half.toFloat(s.get(1))).isEqualTo(-2f);
        Map<String, DType> bytes = Map.of("|b1", DType.BOOL, "|u1", DType.UINT8, "|i1", DType.INT8);
        for (Map.Entry<String, DType> e : bytes.entrySet()) {
            Path f = dir.resolve("b.npy");
            writeNpy(f, e.getKey(), new long[]{1, 3}, new byte[]{1, 0, (byte) 0xff});
            HostTensor t = NpyFile.read(f, "x");
            assertThat(t.type()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(t.shape()).containsExactly(1, 3);
            ByteBuffer b = (ByteBuffer) t.data();
            assertThat(new byte[]{b.get(0), b.get(1), b.get(2)}).containsExactly(1, 0, (byte) 0xff);
        }
    }

    /**
     * With several callers, real data gives each caller a batch of its own where it can (so that the concurrency check
     * sees a call that returned another caller's outputs): a fixed batch rotated by the caller, other images of a
     * folder; a fixed batch of one sample cannot differ.
     */
    @Test
    void eachCallerGetsItsOwnBatchOfRealData() throws Exception {
        Path f = dir.resolve("x.npy");
        writeNpy(f, "<f4", new long[]{3, 2}, floatBytes(0, 1, 10, 11, 20, 21));
        List<TensorSpec> spec = List.of(new TensorSpec("input", DType.FLOAT32, new long[]{-1, 2}));
        InputSpec three = new InputSpec("m", f, Map.of(), 3, 128, 1);
        assertThat(HostTensors.toFloats(DataSource.batch(f.toString(), three, spec, 0).get(0)))
                .containsExactly(0, 1, 10, 11, 20, 21);
        assertThat(HostTensors.toFloats(DataSource.batch(f.toString(), three, spec, 1).get(0)))
                .containsExactly(20, 21, 0, 1, 10, 11);
        assertThat(HostTensors.toFloats(DataSource.batch(f.toString(), three, spec, 2).get(0)))
                .containsExactly(10, 11, 20, 21, 0, 1);
        assertThat(HostTensors.toFloats(DataSource.batch(f.toString(), three, spec, 3).get(0)))
                .as("caller 3 of a batch of 3 comes round to caller 0's order").containsExactly(0, 1, 10, 11, 20, 21);

        Path ids = dir.resolve("ids.npy");
        ByteBuffer longs = ByteBuffer.allocate(4 * 8).order(ByteOrder.LITTLE_ENDIAN);
        longs.asLongBuffer().put(new long[]{1, 2, 3, 4});
        writeNpy(ids, "<i8", new long[]{2, 2}, longs.array());
        List<TensorSpec> idSpec = List.of(new TensorSpec("input_ids", DType.INT64, new long[]{-1, -1}));
        HostTensor second = DataSource.batch(ids.toString(), new InputSpec("m", ids, Map.of(), 2, 2, 1), idSpec, 1).get(0);
        LongBuffer got = ((LongBuffer) second.data()).duplicate();
        assertThat(new long[]{got.get(0), got.get(1), got.get(2), got.get(3)}).containsExactly(3, 4, 1, 2);

        Path images = colourFolder(dir.resolve("img"), false);
        List<TensorSpec> rgb = List.of(new TensorSpec("image", DType.FLOAT32, new long[]{-1, 3, 8, 8}));
        InputSpec one = new InputSpec("m", images, Map.of(), 1, 128, 1);
        float[] first = HostTensors.toFloats(DataSource.batch(images.toString(), one, rgb, 0).get(0));
        float[] other = HostTensors.toFloats(DataSource.batch(images.toString(), one, rgb, 1).get(0));
        assertThat(other).as("caller 1 takes the folder's next image").isNotEqualTo(first);
        assertThat(HostTensors.toFloats(DataSource.batch(images.toString(), one, rgb, 3).get(0)))
                .as("three images: caller 3 wraps round to caller 0's").isEqualTo(first);
    }

    /** Solid-colour images: after ImageNet normalization the brightest channel is the image's class. */
    static Path colourFolder(Path root, boolean oneMislabelled) throws IOException {
        int[] colours = {0xFF0000, 0x00FF00, 0x0000FF};
        String[] names = {"0-red", "1-green", "2-blue"};
        for (int c = 0; c < 3; c++) {
            Path d = Files.createDirectories(root.resolve(names[c]));
            ImageIO.write(solid(colours[c], 40, 30), "png", d.resolve("a.png").toFile());
        }
        if (oneMislabelled) {
            ImageIO.write(solid(colours[0], 30, 40), "png", root.resolve(names[1]).resolve("b.png").toFile());
        }
        return root;
    }

    private static BufferedImage solid(int rgb, int w, int h) {
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                img.setRGB(x, y, rgb);
            }
        }
        return img;
    }

    @Test
    void imagesAreCroppedAndNormalizedWithImageNetStatistics() throws Exception {
        ImageFolder f = ImageFolder.read(colourFolder(dir, true));
        assertThat(f.classes()).containsExactly("0-red", "1-green", "2-blue");
        assertThat(f.labels()).containsExactly(0, 1, 1, 2);
        float[] px = ImageFolder.pixels(f.images().get(0), 8);
        assertThat(px).hasSize(3 * 8 * 8);
        assertThat(px[0]).isCloseTo((1 - 0.485f) / 0.229f, Offset.offset(1e-4f));
        assertThat(px[64]).isCloseTo(-0.456f / 0.224f, Offset.offset(1e-4f));
    }

    /** Real token ids of length 16 in a seqLen=512 cell: refused, not measured as 512 with MACs counted for 512. */
    @Test
    void dataOfAnotherSequenceLengthThanTheCellIsRefused() throws Exception {
        TensorSpec ids = new TensorSpec("input_ids",
                TensorSpec.DType.INT64, new long[]{-1, -1});
        HostTensor tokens = new HostTensor("t",
                TensorSpec.DType.INT64, new long[]{1, 16}, LongBuffer.allocate(16));
        assertThat(DataSource.matched(List.of(tokens), "bert", List.of(ids), 1, "u/bertdata", 16, Map.of()))
                .hasSize(1);
        Assertions.assertThatThrownBy(() -> DataSource.matched(List.of(tokens), "bert", List.of(ids), 1,
                        "u/bertdata", 512, Map.of()))
                .isInstanceOf(BenchException.class)
                .hasMessage("data 'u/bertdata' input 'input_ids' has sequence length 16 but the cell has seqLen=512;"
                        + " expected -p seqLen=16 with this data (its tokens are what runs)");
    }
}
