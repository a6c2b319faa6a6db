package dev.inferbench.pipeline;

import dev.inferbench.BenchException;
import dev.inferbench.tensor.HostTensor;
import dev.inferbench.tensor.TensorSpec.DType;

import javax.imageio.ImageIO;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.SplittableRandom;

/**
 * What a Java image service does before inference, the torchvision way: decode an encoded image (PNG), resize its
 * shorter side to 256/224 of the model's input, center-crop to the input size, and normalize with ImageNet's
 * per-channel mean and standard deviation into an NCHW float batch. Everything in java.desktop (ImageIO, Java2D).
 */
public final class ImagePipeline {
    private static final float[] MEAN = {0.485f, 0.456f, 0.406f};
    private static final float[] STD = {0.229f, 0.224f, 0.225f};

    private final int height;
    private final int width;

    /** For a model input of {@code [N, 3, height, width]}. */
    public ImagePipeline(int height, int width) {
        this.height = height;
        this.width = width;
    }

    /**
     * A seeded 4:3 photo-sized PNG, larger than the input (as camera images are): smooth gradients plus noise, so
     * it compresses like a photo rather than like a flat colour.
     */
    public byte[] samplePng(long seed) throws BenchException {
        int h = Math.max(height, height * 256 / 224 + 32);
        int w = h * 4 / 3;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int r = clamp(255 * x / w + rnd.nextInt(-20, 21));
                int g = clamp(255 * y / h + rnd.nextInt(-20, 21));
                int b = clamp(128 + rnd.nextInt(-40, 41));
                img.setRGB(x, y, (r << 16) | (g << 8) | b);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            ImageIO.write(img, "png", out);
        } catch (IOException e) {
            throw new BenchException("cannot encode the sample image: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** Decodes {@code encoded} once per sample and fills a batch of {@code batch} normalized images. */
    public HostTensor preprocess(String inputName, byte[] encoded, int batch) throws BenchException {
        FloatBuffer data = ByteBuffer.allocateDirect(batch * 3 * height * width * Float.BYTES)
                .order(ByteOrder.nativeOrder()).asFloatBuffer();
        for (int n = 0; n < batch; n++) {
            normalize(cropped(decode(encoded)), data);
        }
        data.rewind();
        return new HostTensor(inputName, DType.FLOAT32, new long[]{batch, 3, height, width}, data);
    }

    private static BufferedImage decode(byte[] encoded) throws BenchException {
        try {
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(encoded));
            if (img == null) {
                throw new BenchException("the sample image is in no format ImageIO reads; expected PNG or JPEG");
            }
            return img;
        } catch (IOException e) {
            throw new BenchException("cannot decode the sample image: " + e.getMessage(), e);
        }
    }

    /** Shorter side to 256/224 of the input, bilinear, then the centered input-sized crop. */
    private BufferedImage cropped(BufferedImage src) {
        double scale = (double) Math.max(height, width) * 256 / 224 / Math.min(src.getWidth(), src.getHeight());
        int w = Math.max(width, (int) Math.round(src.getWidth() * scale));
        int h = Math.max(height, (int) Math.round(src.getHeight() * scale));
        BufferedImage crop = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = crop.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            g.drawImage(src, -(w - width) / 2, -(h - height) / 2, w, h, null);
        } finally {
            g.dispose();
        }
        return crop;
    }

    private void normalize(BufferedImage img, FloatBuffer out) {
        int[] rgb = img.getRGB(0, 0, width, height, null, 0, width);
        int base = out.position();
        int plane = height * width;
        for (int i = 0; i < plane; i++) {
            int p = rgb[i];
            out.put(base + i, (((p >> 16) & 0xff) / 255f - MEAN[0]) / STD[0]);
            out.put(base + plane + i, (((p >> 8) & 0xff) / 255f - MEAN[1]) / STD[1]);
            out.put(base + 2 * plane + i, ((p & 0xff) / 255f - MEAN[2]) / STD[2]);
        }
        out.position(base + 3 * plane);
    }

    private static int clamp(int v) {
        return Math.max(0, Math.min(255, v));
    }
}
