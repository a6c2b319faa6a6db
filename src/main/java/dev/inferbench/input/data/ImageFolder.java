package dev.inferbench.input.data;

import java.util.Locale;
import dev.inferbench.BenchException;

import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.FileImageInputStream;
import javax.imageio.stream.ImageInputStream;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A labelled image folder, one sub-folder per class (sorted names give the class indices 0, 1, ...), decoded with
 * the JDK's ImageIO (PNG, JPEG, BMP, GIF) and preprocessed as torchvision's ImageNet evaluation does: resize the
 * shorter side to size x 256/224, center crop to size x size, scale to [0, 1], normalize with ImageNet's mean and
 * standard deviation, channels first (RGB).
 */
public record ImageFolder(List<String> classes, List<Path> images, int[] labels) {
    private static final float[] MEAN = {0.485f, 0.456f, 0.406f};
    private static final float[] STD = {0.229f, 0.224f, 0.225f};
    /** Pixels an image may have, decoded or resized: 256 MiB as int RGB, above any photograph, below the heap. */
    private static final long MAX_PIXELS = 8192L * 8192;

    public static boolean looksLike(Path dir) throws BenchException {
        return !read(dir, false).images().isEmpty();
    }

    public static ImageFolder read(Path dir) throws BenchException {
        ImageFolder f = read(dir, true);
        if (f.images().isEmpty()) {
            throw new BenchException("image folder " + dir + " has no images; expected one sub-folder per class"
                    + " holding .png/.jpg/.jpeg/.bmp/.gif files");
        }
        return f;
    }

    private static ImageFolder read(Path dir, boolean strict) throws BenchException {
        List<String> classes = new ArrayList<>();
        List<Path> images = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path c : s.filter(Files::isDirectory).sorted().toList()) {
                try (Stream<Path> files = Files.list(c)) {
                    List<Path> own = files.filter(ImageFolder::isImage).sorted().toList();
                    for (Path p : own) {
                        images.add(p);
                        labels.add(classes.size());
                    }
                }
                classes.add(c.getFileName().toString());
            }
        } catch (IOException e) {
            if (strict) {
                throw new BenchException("cannot read image folder " + dir + ": " + e.getMessage(), e);
            }
        }
        return new ImageFolder(classes, images, labels.stream().mapToInt(Integer::intValue).toArray());
    }

    private static boolean isImage(Path p) {
        String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".png") || n.endsWith(".jpg") || n.endsWith(".jpeg") || n.endsWith(".bmp") || n.endsWith(".gif");
    }

    /** One image as {@code [3, size, size]} floats, normalized. */
    public static float[] pixels(Path file, int size) throws BenchException {
        BufferedImage img = decode(file, size);
        long[] scaled = resized(img.getWidth(), img.getHeight(), size);
        int w = (int) scaled[0];
        int h = (int) scaled[1];
        BufferedImage resized = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = resized.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(img, 0, 0, w, h, null);
        g.dispose();
        int x0 = (w - size) / 2;
        int y0 = (h - size) / 2;
        float[] out = new float[3 * size * size];
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                int rgb = resized.getRGB(x0 + x, y0 + y);
                for (int c = 0; c < 3; c++) {
                    float v = ((rgb >> (16 - 8 * c)) & 0xFF) / 255f;
                    out[c * size * size + y * size + x] = (v - MEAN[c]) / STD[c];
                }
            }
        }
        return out;
    }

    /**
     * The image, once its header shows that neither it nor its resized copy passes {@link #MAX_PIXELS}: a small file
     * can declare a huge image (a decompression bomb), or a thin one whose resized copy is huge.
     */
    private static BufferedImage decode(Path file, int size) throws BenchException {
        try (ImageInputStream in = new FileImageInputStream(file.toFile())) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(in);
            if (!readers.hasNext()) {
                throw new BenchException("cannot decode image " + file + "; expected PNG, JPEG, BMP or GIF");
            }
            ImageReader reader = readers.next();
            try {
                reader.setInput(in, true, true);
                int w = reader.getWidth(0);
                int h = reader.getHeight(0);
                if (w <= 0 || h <= 0 || (long) w * h > MAX_PIXELS) {
                    throw new BenchException("image " + file + " is " + w + " x " + h + " pixels; expected at most "
                            + MAX_PIXELS + " pixels (8192 x 8192)");
                }
                long[] scaled = resized(w, h, size);
                if (scaled[0] * scaled[1] > MAX_PIXELS) {
                    throw new BenchException("image " + file + " is " + w + " x " + h + " pixels, " + scaled[0]
                            + " x " + scaled[1] + " once its shorter side is resized for " + size + " x " + size
                            + "; expected at most " + MAX_PIXELS + " pixels resized (a less extreme aspect ratio)");
                }
                return reader.read(0);
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            // the JDK's decoders throw unchecked exceptions (bad indices, sizes, arguments) on some malformed files
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new BenchException("cannot decode image " + file + ": " + why.replaceAll("\\s+", " ")
                    + "; expected PNG, JPEG, BMP or GIF", e);
        }
    }

    /** Width and height once the shorter side is size x 256/224, as torchvision's evaluation resize makes them. */
    private static long[] resized(int width, int height, int size) {
        int shorter = Math.round(size * 256f / 224f);
        double k = (double) shorter / Math.min(width, height);
        return new long[]{Math.max(size, Math.round(width * k)), Math.max(size, Math.round(height * k))};
    }
}
