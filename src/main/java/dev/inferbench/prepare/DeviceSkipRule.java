package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.engine.DeviceCheck;
import dev.inferbench.engine.EngineKind;
import dev.inferbench.engine.GpuProbe;
import dev.inferbench.engine.JarContents;

import java.util.Optional;
import java.util.function.Predicate;

/**
 * Skips a cell whose engine this jar lacks (the ONNX-Runtime-only jar's djl-pytorch) or whose device this machine or
 * this build cannot give ({@link DeviceCheck} says why).
 */
public final class DeviceSkipRule implements SkipRule {
    private final DeviceCheck check;

    public DeviceSkipRule() {
        this.check = new DeviceCheck();
    }

    DeviceSkipRule(GpuProbe probe, Predicate<EngineKind> cudaBuild) {
        this.check = new DeviceCheck(probe, cudaBuild);
    }

    DeviceSkipRule(GpuProbe probe, Predicate<EngineKind> cudaBuild, JarContents jar) {
        this.check = new DeviceCheck(probe, cudaBuild, jar);
    }

    @Override
    public Optional<String> skipReason(CellSpec cell) throws BenchException {
        return check.unavailable(cell.engine(), cell.device(), cell.deviceName());
    }
}
