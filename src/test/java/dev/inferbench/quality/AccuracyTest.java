package dev.inferbench.quality;

import ai.onnx.proto.OnnxMl;
import dev.inferbench.engine.Device;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.EngineSettings;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.input.data.ImageFolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class AccuracyTest {
    @TempDir
    Path dir;

    @Test
    void topKCountsTheLabelAmongTheHighestScores() {
        float[] scores = {0.1f, 0.7f, 0.2f, /* */ 0.5f, 0.3f, 0.2f};
        assertThat(Accuracy.of(scores, new int[]{1, 1})).isEqualTo(new Accuracy(50, 100));
        assertThat(Accuracy.of(scores, new int[]{0, 2})).isEqualTo(new Accuracy(0, 100));
    }

    @Test
    void fidelityOfIdenticalAndOfPerturbedOutputs() {
        float[] ref = {1, 2, 3, 3, 2, 1};
        assertThat(Fidelity.of(ref, ref.clone(), 2)).isEqualTo(new Fidelity(100, 0, 1, 2));
        Fidelity f = Fidelity.of(ref, new float[]{1, 2, 3, 3, 2, 3.5f}, 2);
        assertThat(f.top1Agreement()).isEqualTo(50);
        assertThat(f.maxAbsError()).isEqualTo(2.5);
        assertThat(f.cosine()).isLessThan(1).isGreaterThan(0.8);
    }

    /**
     * A model whose class scores are the mean of each colour channel, and solid red/green/blue images in folders
     * named for their colour, plus one red image filed under green: 3 of 4 right at top-1, all 4 within the top 3.
     */
    @Test
    void accuracyOnALabelledFolderWhoseAnswersAreKnownByConstruction() throws Exception {
        int[] colours = {0xFF0000, 0x00FF00, 0x0000FF};
        String[] names = {"0-red", "1-green", "2-blue"};
        for (int c = 0; c < 3; c++) {
            Path d = Files.createDirectories(dir.resolve("images").resolve(names[c]));
            ImageIO.write(solid(colours[c]), "png", d.resolve("a.png").toFile());
        }
        ImageIO.write(solid(colours[0]), "png", dir.resolve("images/1-green/b.png").toFile());
        Path model = dir.resolve("channel-mean.onnx");
        Files.write(model, channelMeanModel(8).toByteArray());
        try (InferenceEngine engine = EngineKind.ORT.open(model, Device.parse("cpu"), EngineSettings.DEFAULTS)) {
            ImageFolder folder = ImageFolder.read(dir.resolve("images"));
            assertThat(AccuracyProbe.measure(engine, folder, "channel-mean", 3)).isEqualTo(new Accuracy(75, 100));
            assertThat(AccuracyProbe.measure(engine, folder, "channel-mean", 1)).isEqualTo(new Accuracy(75, 100));
        }
    }

    private static BufferedImage solid(int rgb) {
        BufferedImage img = new BufferedImage(12, 10, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 12; x++) {
                img.setRGB(x, y, rgb);
            }
        }
        return img;
    }

    static OnnxMl.ModelProto channelMeanModel(int size) {
        OnnxMl.TensorShapeProto.Builder in = OnnxMl.TensorShapeProto.newBuilder()
                .addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimParam("batch"));
        for (int d : new int[]{3, size, size}) {
            in.addDim(OnnxMl.TensorShapeProto.Dimension.newBuilder().setDimValue(d));
        }
        OnnxMl.TypeProto.Builder type = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor.newBuilder()
                .setElemType(OnnxMl.TensorProto.DataType.FLOAT.getNumber()).setShape(in));
        OnnxMl.TypeProto.Builder outType = OnnxMl.TypeProto.newBuilder().setTensorType(OnnxMl.TypeProto.Tensor
                .newBuilder().setElemType(OnnxMl.TensorProto.DataType.FLOAT.getNumber()));
        OnnxMl.GraphProto graph = OnnxMl.GraphProto.newBuilder().setName("channel-mean")
                .addInput(OnnxMl.ValueInfoProto.newBuilder().setName("input").setType(type))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("GlobalAveragePool").addInput("input").addOutput("p"))
                .addNode(OnnxMl.NodeProto.newBuilder().setOpType("Flatten").addInput("p").addOutput("scores"))
                .addOutput(OnnxMl.ValueInfoProto.newBuilder().setName("scores").setType(outType)).build();
        return OnnxMl.ModelProto.newBuilder().setIrVersion(8).setGraph(graph)
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setVersion(13)).build();
    }
}
