package dev.inferbench.input.data;

import ai.onnx.proto.OnnxMl.TensorProto;
import com.google.protobuf.ByteString;
import dev.inferbench.BenchException;
import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.tensor.TensorSpec.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Files whose lengths, shapes or sizes lie are refused, before any allocation, in one line naming what was found. */
class RefusalsTest {
    private static final String NPY_ERA = "; expected a .npy file of format version 1, 2 or 3";

    @TempDir
    Path dir;

    private Path npy(String name, int major, String shape, int dataBytes) throws IOException {
        return Files.write(dir.resolve(name), ReadersFuzzTest.npy(major,
                "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }", new byte[dataBytes]));
    }

    @Test
    void aNpyHeaderLengthPastTheFileOrAPreambleCutShortIsRefused() throws Exception {
        Path f = npy("x.npy", 2, "(2, 3)", 24);
        byte[] b = Files.readAllBytes(f);
        ByteBuffer.wrap(b).putInt(8, -1);
        Files.write(f, b);
        assertThatThrownBy(() -> NpyFile.read(f, "x")).isInstanceOf(BenchException.class)
                .hasMessage(f + " is not a .npy array: its header length 4294967295 exceeds the file's " + b.length
                        + " bytes" + NPY_ERA);
        Files.write(f, java.util.Arrays.copyOf(b, 11));
        assertThatThrownBy(() -> NpyFile.read(f, "x")).isInstanceOf(BenchException.class)
                .hasMessage(f + " is not a .npy array: it ends after 11 bytes, inside its 12-byte preamble" + NPY_ERA);
    }

    @Test
    void aNpyShapeThatOverflowsOrPassesItsDataIsRefused() throws Exception {
        Path wraps = npy("w.npy", 1, "(65536, 65536, 65536, 65536)", 0);
        assertThatThrownBy(() -> NpyFile.read(wraps, "x")).isInstanceOf(BenchException.class)
                .hasMessage(wraps + " has shape [65536, 65536, 65536, 65536], more 4-byte values than one buffer"
                        + " holds; expected at most 2147483639 bytes of data");
        Path huge = npy("h.npy", 3, "(99999999999999999999,)", 0);
        assertThatThrownBy(() -> NpyFile.read(huge, "x"))
                .hasMessage(huge + " is not a .npy array: its shape has the size 99999999999999999999, more than one"
                        + " buffer holds" + NPY_ERA);
        Path negative = npy("n.npy", 1, "(-2, -3)", 24);
        assertThatThrownBy(() -> NpyFile.read(negative, "x"))
                .hasMessage(negative + " is not a .npy array: its shape has the size '-2'" + NPY_ERA);
        Path more = npy("m.npy", 1, "(1000,)", 24);
        assertThatThrownBy(() -> NpyFile.read(more, "x"))
                .hasMessage(more + " is not a complete .npy array: shape [1000] needs 4000 bytes of data, the file has"
                        + " 24; expected the data its header describes");
        assertThat(NpyFile.read(npy("e.npy", 1, "(0, 2000000000)", 0), "x").shape()).containsExactly(0, 2000000000);
    }

    @Test
    void aTensorProtoWhoseDimsOrDataLieIsRefused() throws Exception {
        Path negative = pb("n.pb", TensorProto.newBuilder().addDims(-2).addDims(-3), 24);
        assertThatThrownBy(() -> TensorProtoFile.read(negative)).isInstanceOf(BenchException.class)
                .hasMessage(negative + " has shape [-2, -3] with a negative dimension; expected sizes of 0 or more");
        Path wraps = pb("w.pb", TensorProto.newBuilder().addDims(1L << 32).addDims(1L << 32), 0);
        assertThatThrownBy(() -> TensorProtoFile.read(wraps))
                .hasMessageContaining("has shape [4294967296, 4294967296], more 4-byte values than one buffer holds");
        Path shortRaw = pb("s.pb", TensorProto.newBuilder().addDims(2).addDims(3), 23);
        assertThatThrownBy(() -> TensorProtoFile.read(shortRaw))
                .hasMessage(shortRaw + " declares shape [2, 3] (6 values of 4 bytes) but holds 23 bytes of raw_data;"
                        + " expected a complete tensor");
    }

    private Path pb(String name, TensorProto.Builder t, int rawBytes) throws IOException {
        t.setDataType(TensorProto.DataType.FLOAT.getNumber()).setRawData(ByteString.copyFrom(new byte[rawBytes]));
        return Files.write(dir.resolve(name), t.build().toByteArray());
    }

    @Test
    void aTestSetFileNumberedPastAnIntOrTwiceIsRefused() throws Exception {
        Path set = Files.createDirectories(dir.resolve("test_data_set_0"));
        DataFilesTest.writePb(set.resolve("input_0.pb"), "x", new long[]{1}, new float[]{1});
        DataFilesTest.writePb(set.resolve("input_99999999999999999999.pb"), "x", new long[]{1}, new float[]{1});
        assertThatThrownBy(() -> TestSet.read(set)).isInstanceOf(BenchException.class)
                .hasMessage("test set " + set + " has input_99999999999999999999.pb, numbered past 2147483647;"
                        + " expected input_K.pb and output_K.pb numbered from 0 without gaps");
        Files.move(set.resolve("input_99999999999999999999.pb"), set.resolve("input_00.pb"));
        assertThatThrownBy(() -> TestSet.read(set)).hasMessageContaining(" and input_")
                .hasMessageEndingWith("; expected one input file per number");
    }

    /** A few hundred bytes that declare an image of 10^10 pixels are refused from the header, not decoded. */
    @Test
    void anImageTooLargeOrTooThinToResizeIsRefusedBeforeDecoding() throws Exception {
        Path cls = Files.createDirectories(dir.resolve("img/cat"));
        Path bomb = Files.write(cls.resolve("bomb.png"), pngClaiming(100_000, 100_000));
        assertThatThrownBy(() -> ImageFolder.pixels(bomb, 224)).isInstanceOf(BenchException.class)
                .hasMessage("image " + bomb + " is 100000 x 100000 pixels; expected at most 67108864 pixels"
                        + " (8192 x 8192)");
        Path thin = Files.write(cls.resolve("thin.png"), pngClaiming(1, 4_000_000));
        assertThatThrownBy(() -> ImageFolder.pixels(thin, 224))
                .hasMessage("image " + thin + " is 1 x 4000000 pixels, 256 x 1024000000 once its shorter side is"
                        + " resized for 224 x 224; expected at most 67108864 pixels resized (a less extreme aspect ratio)");
    }

    @Test
    void anImageBatchPastOneBufferIsRefused() throws Exception {
        Path cls = Files.createDirectories(dir.resolve("img/cat"));
        ImageIO.write(new BufferedImage(4, 4, BufferedImage.TYPE_INT_RGB), "png", cls.resolve("a.png").toFile());
        List<TensorSpec> spec = List.of(new TensorSpec("image", DType.FLOAT32, new long[]{-1, 3, 100_000, 100_000}));
        assertThatThrownBy(() -> DataSource.images(ImageFolder.read(dir.resolve("img")), "m", spec, 8, 0))
                .isInstanceOf(BenchException.class)
                .hasMessage("model 'm' with a batch of 8 images has shape [8, 3, 100000, 100000], more 4-byte values"
                        + " than one buffer holds; expected at most 2147483639 bytes of data");
    }

    /** A valid 2 x 2 PNG whose header (CRC and all) claims {@code width} x {@code height}. */
    private static byte[] pngClaiming(int width, int height) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB), "png", out);
        byte[] png = out.toByteArray();
        ByteBuffer b = ByteBuffer.wrap(png).putInt(16, width).putInt(20, height);
        CRC32 crc = new CRC32();
        crc.update(png, 12, 17);
        b.putInt(29, (int) crc.getValue());
        return png;
    }
}
