package dev.inferbench.engine;

import dev.inferbench.BenchException;

import java.util.Optional;
import java.util.function.Predicate;

/**
 * Whether an engine can run on a device on this machine and in this build: the engine must be in the jar (the
 * ONNX-Runtime-only jar has no libtorch, {@link JarContents}); {@code cuda} needs an NVIDIA GPU and an
 * engine built with CUDA support (build with {@code mvn -Pcuda}, see docs/engines.md). A device index beyond the GPUs
 * that exist is bad input, not an absence: it throws.
 */
public final class DeviceCheck {
    private final GpuProbe probe;
    private final Predicate<EngineKind> cudaBuild;
    private final JarContents jar;

    public DeviceCheck() {
        this(GpuProbe.system(), EngineKind::hasCudaBuild);
    }

    public DeviceCheck(GpuProbe probe, Predicate<EngineKind> cudaBuild) {
        this(probe, cudaBuild, JarContents.running());
    }

    public DeviceCheck(GpuProbe probe, Predicate<EngineKind> cudaBuild, JarContents jar) {
        this.probe = probe;
        this.cudaBuild = cudaBuild;
        this.jar = jar;
    }

    /**
     * @param deviceName the device as the user wrote it, for the message
     * @return why {@code engine} cannot run on {@code device} here, in one line; empty when it can
     */
    public Optional<String> unavailable(EngineKind engine, Device device, String deviceName) throws BenchException {
        Optional<String> missing = jar.missing(engine);
        if (missing.isPresent()) {
            return missing;
        }
        if (device.kind() == Device.Kind.CPU) {
            return Optional.empty();
        }
        int gpus = probe.cudaDevices();
        if (gpus == 0) {
            return Optional.of("device '" + deviceName + "': no NVIDIA GPU found");
        }
        if (device.index() >= gpus) {
            throw new BenchException("device '" + deviceName + "' does not exist; the host has " + gpus
                    + " GPU(s): expected cuda:0" + (gpus > 1 ? " to cuda:" + (gpus - 1) : ""));
        }
        if (!cudaBuild.test(engine)) {
            return Optional.of("device '" + deviceName + "': engine '" + engine.id() + "' in this jar is a CPU "
                    + "build; expected " + (engine == EngineKind.DJL_PYTORCH
                    ? "PYTORCH_LIBRARY_PATH naming a CUDA libtorch 2.7.1" : "a jar built with mvn -Pcuda package"));
        }
        return Optional.empty();
    }
}
