package dev.inferbench.engine;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.run.SkipRule;

import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Skips a cell whose device this machine or this build cannot give: {@code cuda} on a machine without an NVIDIA GPU,
 * or an engine built without CUDA support (build with {@code mvn -Pcuda}, see README). A device index beyond the
 * GPUs that exist is bad input, not a skip: it fails the run before it starts.
 */
public final class DeviceSkipRule implements SkipRule {
    private final GpuProbe probe;
    private final Predicate<EngineKind> cudaBuild;

    public DeviceSkipRule() {
        this(GpuProbe.system(), EngineKind::hasCudaBuild);
    }

    DeviceSkipRule(GpuProbe probe, Predicate<EngineKind> cudaBuild) {
        this.probe = probe;
        this.cudaBuild = cudaBuild;
    }

    @Override
    public Optional<String> skipReason(Map<String, String> params, BenchConfig config) throws BenchException {
        String deviceName = params.get("device");
        if (deviceName == null) {
            return Optional.empty();
        }
        Device device = Device.parse(deviceName);
        if (device.kind() == Device.Kind.CPU) {
            return Optional.empty();
        }
        int gpus = probe.cudaDevices();
        if (gpus == 0) {
            return Optional.of("device '" + deviceName + "': no NVIDIA GPU on this machine");
        }
        if (device.index() >= gpus) {
            throw new BenchException("device '" + deviceName + "' does not exist; this machine has " + gpus
                    + " GPU(s): expected cuda:0" + (gpus > 1 ? " to cuda:" + (gpus - 1) : ""));
        }
        String engineName = params.get("engine");
        if (engineName != null) {
            EngineKind engine = EngineKind.parse(engineName);
            if (!cudaBuild.test(engine)) {
                return Optional.of("device '" + deviceName + "': engine '" + engineName + "' in this jar is a CPU "
                        + "build; expected " + (engine == EngineKind.DJL_PYTORCH
                        ? "PYTORCH_LIBRARY_PATH naming a CUDA libtorch 2.7.1" : "a jar built with mvn -Pcuda package"));
            }
        }
        return Optional.empty();
    }
}
