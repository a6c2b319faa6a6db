package dev.inferbench.prepare;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.EngineKind;

import java.util.Optional;

/**
 * Skips {@code spin=off} on engines that cannot turn their threads' spinning off: the switch is an ONNX Runtime
 * session entry, which DJL's OnnxRuntime engine does not pass through, and libtorch's pools do not spin.
 */
public final class SpinSkipRule implements SkipRule {

    @Override
    public Optional<String> skipReason(CellSpec cell) {
        if (cell.settings().spinning() || cell.engine() == EngineKind.ORT) {
            return Optional.empty();
        }
        return Optional.of("spin=off is an ONNX Runtime session setting that engine '" + cell.engine().id()
                + "' cannot pass; engine ort takes it");
    }
}
