package dev.inferbench.variant;

import dev.inferbench.AtomicFile;
import dev.inferbench.model.ZooGenerator;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.StringStringEntryProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import dev.inferbench.BenchException;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Precision variants of an fp32 ONNX model, cached next to it ({@code models/resnet50.int8.onnx}). Each variant
 * records the sha256 of its source file and the calibration seed in its metadata; a variant whose source or seed
 * changed is made again. Made before JMH starts, never inside a measurement.
 */
public final class Variants {
    public static final String META_PRECISION = "inferbench.variant.precision";
    public static final String META_SOURCE = "inferbench.variant.source.sha256";
    public static final String META_SEED = "inferbench.variant.seed";

    private Variants() {
    }

    /**
     * The seed of the calibration batch: next to, not equal to, the seed of the measured inputs, so fidelity is
     * measured on inputs the int8 scales were not fitted to.
     */
    public static long calibrationSeed(long inputSeed) {
        return inputSeed + 1;
    }

    /** Where the variant of {@code source} lives; fp32 is the source itself. */
    public static Path file(Path source, Precision precision) {
        if (precision == Precision.FP32) {
            return source;
        }
        String name = source.getFileName().toString();
        String base = name.toLowerCase(Locale.ROOT).endsWith(".onnx") ? name.substring(0, name.length() - 5) : name;
        return source.resolveSibling(base + "." + precision.id() + ".onnx");
    }

    /**
     * The variant's file, made now if missing or stale.
     *
     * @param perSample per-sample input shapes of the registry entry (for calibrating dynamic inputs)
     * @param seed      the seed of the calibration inputs
     */
    public static Path ensure(String model, Path source, Precision precision, Map<String, long[]> perSample,
                              long seed, PrintStream progress) throws BenchException {
        Path target = file(source, precision);
        if (precision == Precision.FP32) {
            return target;
        }
        String digest = sha256(source);
        if (isCurrent(target, digest, seed)) {
            return target;
        }
        long start = System.nanoTime();
        ModelProto fp32 = read(source, model);
        boolean decoder = Fp16Transform.isDecoder(fp32);
        if (decoder && precision == Precision.INT8) {
            throw new BenchException("model '" + model + "' is a decoder (it takes past_key_values), and int8 variants"
                    + " are calibrated on single forward calls; expected precision fp32, fp16 or int4 for a decoder");
        }
        if (!decoder && precision == Precision.INT4) {
            throw new BenchException("model '" + model + "' is no decoder (it takes no past_key_values), and int4"
                    + " variants quantize a decoder's MatMul weights; expected precision fp32, fp16 or int8 for it");
        }
        progress.printf(Locale.ROOT, "[inferbench] making the %s variant of %s -> %s ...%n", precision.id(), model, target);
        ModelProto variant = switch (precision) {
            case FP16 -> decoder ? Fp16Transform.decoder(fp32) : Fp16Transform.apply(fp32);
            case INT4 -> Int4Transform.decoder(fp32);
            case INT8 -> {
                ModelProto folded = ConvFolding.apply(fp32);
                var ranges = Int8Ranges.ranges(fp32, QdqTransform.activations(folded), model, perSample, seed);
                yield QdqTransform.apply(folded, ranges);
            }
            case FP32 -> fp32;
        };
        variant = variant.toBuilder().setDocString(fp32.getDocString() + " (" + precision.id() + " variant)")
                .addMetadataProps(meta(META_PRECISION, precision.id()))
                .addMetadataProps(meta(META_SOURCE, digest))
                .addMetadataProps(meta(META_SEED, Long.toString(seed))).build();
        write(variant, target);
        progress.printf(Locale.ROOT, "[inferbench] made %s in %.2f s%n", target,
                (System.nanoTime() - start) / 1e9);
        return target;
    }

    /**
     * The int4 variant's weights dequantized back to float32 under plain MatMuls: what the variant's MatMulNBits nodes
     * must compute (for tests of the packing).
     */
    public static ModelProto int4Simulated(ModelProto fp32) {
        return Int4Transform.apply(fp32, true);
    }

    /**
     * Whether making this variant runs an engine: an int8 variant is calibrated on ONNX Runtime, so a launcher makes
     * it in a JVM of its own; the other transforms are plain Java.
     */
    public static boolean calibrates(Path source, Precision precision, long seed) throws BenchException {
        return precision == Precision.INT8 && !isCurrent(file(source, precision), sha256(source), seed);
    }

    private static boolean isCurrent(Path target, String digest, long seed) throws BenchException {
        if (!Files.isRegularFile(target)) {
            return false;
        }
        try {
            ModelProto existing = parse(target, target.toString());
            return digest.equals(meta(existing, META_SOURCE).orElse(""))
                    && Long.toString(seed).equals(meta(existing, META_SEED).orElse(""));
        } catch (BenchException e) {
            return false; // a broken variant is simply made again
        }
    }

    static Optional<String> meta(ModelProto model, String key) {
        return model.getMetadataPropsList().stream().filter(e -> e.getKey().equals(key))
                .map(StringStringEntryProto::getValue).findFirst();
    }

    private static ModelProto read(Path file, String model) throws BenchException {
        ModelProto proto = parse(file, model);
        boolean hasFp32 = proto.getGraph().getInitializerList().stream()
                .anyMatch(t -> t.getDataType() == TensorProto.DataType.FLOAT.getNumber());
        boolean hasOther = proto.getGraph().getInitializerList().stream()
                .anyMatch(t -> t.getDataType() == TensorProto.DataType.FLOAT16.getNumber()
                        || t.getDataType() == TensorProto.DataType.INT8.getNumber()
                        || t.getDataType() == TensorProto.DataType.UINT8.getNumber());
        if (!hasFp32 || hasOther) {
            String named = model.equals(file.toString()) ? "model " + file : "model '" + model + "' file " + file;
            throw new BenchException(named + " is not a float32 model (its weights are not all float32), and"
                    + " precision fp16, int8 and int4 are variants made from a float32 file; expected precision=fp32,"
                    + " which runs the file as it is");
        }
        return proto;
    }

    private static ModelProto parse(Path file, String model) throws BenchException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
            return ModelProto.parseFrom(in);
        } catch (IOException e) {
            throw new BenchException("model '" + model + "' file " + file + " is not a valid ONNX model (" + e.getMessage()
                    + "); expected an .onnx file", e);
        }
    }

    private static void write(ModelProto model, Path target) throws BenchException {
        try {
            AtomicFile.write(target, model::writeTo);
        } catch (IOException e) {
            throw new BenchException("cannot write " + target + ": " + e, e);
        }
    }

    static String sha256(Path file) throws BenchException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new BenchException("cannot read " + file + ": " + e, e);
        }
    }

    private static StringStringEntryProto meta(String key, String value) {
        return StringStringEntryProto.newBuilder().setKey(key).setValue(value).build();
    }
}
