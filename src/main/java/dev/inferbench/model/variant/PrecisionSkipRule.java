package dev.inferbench.model.variant;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.run.SkipRule;

import java.util.Map;
import java.util.Optional;

/**
 * Skips the fp16 and int8 cells of {@code djl-pytorch}: it renders a zoo model on DJL operators from the fp32
 * weights of its ONNX file (and runs a TorchScript file as it is), so a variant file, whose weights are float16 or
 * quantized, is nothing it can load. Without this rule such a cell failed inside its fork with a message about a
 * missing float initializer that sent users to regenerate a file that was fine.
 */
public final class PrecisionSkipRule implements SkipRule {
    static final String REASON = "engine '" + EngineKind.DJL_PYTORCH.id() + "' renders zoo models from their fp32"
            + " weights; precision fp16/int8 variants run on " + EngineKind.ORT.id() + " and "
            + EngineKind.DJL_ORT.id();

    @Override
    public Optional<String> skipReason(Map<String, String> params, BenchConfig config) throws BenchException {
        String engine = params.get("engine");
        String precision = params.get("precision");
        if (engine == null || precision == null) {
            return Optional.empty();
        }
        if (EngineKind.parse(engine) == EngineKind.DJL_PYTORCH && Precision.parse(precision) != Precision.FP32) {
            return Optional.of(REASON);
        }
        return Optional.empty();
    }
}
