package dev.inferbench.cell;

import java.util.Collections;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One cell of the matrix: a benchmark method in one mode with one value per parameter. Its forks are the unit the
 * run loop schedules, persists and retries.
 *
 * @param benchmark the method's full name, {@code dev.inferbench.bench.InferenceBenchmark.infer}
 * @param mode      JMH's short mode label ({@code sample}, {@code avgt}, {@code ss}, ...)
 * @param params    parameter values in name order, as JMH orders them
 */
public record Cell(String benchmark, String mode, Map<String, String> params) {
    private static final int MAX_ID_LENGTH = 200;

    public Cell {
        // JSON keys are never null; a damaged plan.json may still lack the map, which Plan.fromJson refuses
        params = Collections.unmodifiableMap(new LinkedHashMap<>(new TreeMap<>(params == null ? Map.of() : params)));
    }

    /**
     * A readable, filesystem-safe name, unique within a plan: {@code InferenceBenchmark.infer-sample-batchSize=1-...}.
     * Very long names (model paths) are cut and given a digest of the whole so that two cells never share one.
     */
    public String id() {
        StringBuilder sb = new StringBuilder(shortName()).append('-').append(mode);
        params.forEach((k, v) -> sb.append('-').append(k).append('=').append(v));
        return fileName(sb.toString(), "[^A-Za-z0-9=._,+-]");
    }

    /**
     * {@code text} as a file name: characters matching {@code notAllowed} as {@code _}; when longer than a file name may
     * be, cut after a whole word (at a {@code -} or {@code _}) and given a digest of the whole text, so that two texts
     * never share one.
     */
    public static String fileName(String text, String notAllowed) {
        String safe = text.replaceAll(notAllowed, "_");
        if (safe.length() <= MAX_ID_LENGTH) {
            return safe;
        }
        int room = MAX_ID_LENGTH - 13;
        int cut = Math.max(safe.lastIndexOf('-', room), safe.lastIndexOf('_', room));
        return safe.substring(0, cut > room / 2 ? cut : room) + "-" + digest(text).substring(0, 12);
    }

    /** {@code InferenceBenchmark.infer}: class and method. */
    public String shortName() {
        String[] parts = benchmark.split("\\.");
        return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
    }

    /** For progress lines: {@code resnet50 ort batchSize=1 ...}, the values that tell cells apart. */
    public String label() {
        StringBuilder sb = new StringBuilder(shortName());
        params.forEach((k, v) -> {
            if (!unset(k, v)) {
                sb.append(' ').append(k).append('=').append(v);
            }
        });
        return sb.toString();
    }

    /**
     * A parameter at its "not given" value: {@code shape=none}, {@code values=none} and {@code state=none} are on every
     * model cell and say nothing a reader needs, so labels leave them out (ids keep them: they name files).
     */
    public static boolean unset(String key, String value) {
        return (key.equals(CellSpec.SHAPE) && value.equals(ShapeParam.NONE))
                || (key.equals(CellSpec.VALUES) && value.equals(dev.inferbench.input.InputValues.NONE))
                || (key.equals(CellSpec.STATE) && value.equals(dev.inferbench.engine.StateFeed.NONE));
    }

    /** SHA-256 of the text, in hex. */
    public static String digest(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
