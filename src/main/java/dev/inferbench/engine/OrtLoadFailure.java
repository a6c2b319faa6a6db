package dev.inferbench.engine;

import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What follows ONNX Runtime's own words when it refuses a model ({@code ort} and {@code djl-ort} load the same native
 * library). A missing kernel ("Could not find an implementation for Gemm(6)") is no broken file: in a model older
 * than opset 7 it is an operator version ORT dropped, which converting the model mends; at a newer opset it is a
 * node whose input types ORT has no kernel for (double Erf on the CPU), which a newer opset would not mend.
 */
final class OrtLoadFailure {
    /**
     * ORT logs on such models that it "only *guarantees* support for models stamped with opset version 7 or above for
     * opset domain 'ai.onnx'"; ORT 1.29 has no Gemm-6 or Relu-1 kernel.
     */
    static final long OLDEST_OPSET = 7;
    /**
     * The opset suggested for a conversion: the zoo's own (OnnxOps.OPSET), which ORT releases of recent years run;
     * onnx 1.23's converter took a Gemm-6 model there and ORT 1.29 ran the result.
     */
    static final long SUGGESTED_OPSET = 17;
    private static final Pattern MISSING_KERNEL =
            Pattern.compile("Could not find an implementation for ([\\w.]+)\\((\\d+)\\)");

    private OrtLoadFailure() {
    }

    /** The tail of the load error, from "; expected": reads the model's opset from the file. */
    static String expected(Path model, String ortMessage, String ortVersion) {
        return expected(model, ortMessage, OnnxFile.opset(model), ortVersion);
    }

    static String expected(Path model, String ortMessage, OptionalLong opset, String ortVersion) {
        Matcher kernel = MISSING_KERNEL.matcher(ortMessage == null ? "" : ortMessage);
        String missing = kernel.find() ? kernel.group(1) + " version " + kernel.group(2) : null;
        String ort = "ONNX Runtime " + ortVersion;
        if (opset.isPresent() && opset.getAsLong() < OLDEST_OPSET) {
            return String.format(Locale.ROOT, "; expected a model of opset %d or newer, the oldest %s guarantees, found"
                            + " opset %d (ai.onnx)%s: convert it with onnx's version converter (%s) or export it again"
                            + " with a newer opset", OLDEST_OPSET, ort, opset.getAsLong(),
                    missing == null ? "" : ", whose " + missing + " it has no kernel for", converter(model));
        }
        if (missing != null) {
            return "; expected nodes that " + ort + " has kernels for, found " + missing
                    + (opset.isPresent() ? " (model opset " + opset.getAsLong() + ", ai.onnx)" : "")
                    + ", which it has no kernel for with this node's input types (ONNX Runtime's OperatorKernels.md"
                    + " lists the types per operator; float32 has the most)";
        }
        return "; expected a valid ONNX model";
    }

    /** A command that writes the model converted to {@link #SUGGESTED_OPSET} beside it. */
    static String converter(Path model) {
        String name = model.getFileName().toString();
        String stem = name.toLowerCase(Locale.ROOT).endsWith(".onnx") ? name.substring(0, name.length() - 5) : name;
        Path converted = model.resolveSibling(stem + "-opset" + SUGGESTED_OPSET + ".onnx");
        return "python -c \"import onnx; from onnx import version_converter as vc; onnx.save(vc.convert_version("
                + "onnx.load('" + model + "'), " + SUGGESTED_OPSET + "), '" + converted + "')\"";
    }
}
