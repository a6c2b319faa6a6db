package dev.inferbench.prepare;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.variant.Precision;

import java.util.Optional;

/**
 * Skips the fp16 and int8 cells of an engine that reads no variant file: {@code djl-pytorch} renders a zoo model on
 * DJL operators from the fp32 weights of its ONNX file (and runs a TorchScript file as it is), so a variant file,
 * whose weights are float16 or quantized, is nothing it can load. Without this rule such a cell failed inside its
 * fork with a message about a missing float initializer that sent users to regenerate a file that was fine.
 */
public final class PrecisionSkipRule implements SkipRule {
    static final String REASON = "engine '" + EngineKind.DJL_PYTORCH.id() + "' renders zoo models from their fp32"
            + " weights; precision fp16/int8 variants run on " + EngineKind.ORT.id() + " and "
            + EngineKind.DJL_ORT.id();

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        if (!cell.engine().readsOnnxAsIs() && cell.precision() != Precision.FP32) {
            return Optional.of(REASON);
        }
        return Optional.empty();
    }
}
