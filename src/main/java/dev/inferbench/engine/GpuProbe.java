package dev.inferbench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Counts the NVIDIA GPUs the kernel driver exposes, without loading any native library: one folder per GPU under
 * {@code /proc/driver/nvidia/gpus}, or else one {@code /dev/nvidiaN} node per GPU (containers often have only
 * these). Runs in the launcher, before JMH starts, so that cuda cells on a machine without a GPU are skipped.
 */
public final class GpuProbe {
    private static final Pattern DEVICE_NODE = Pattern.compile("nvidia\\d+");

    private final Path procGpus;
    private final Path dev;

    public GpuProbe(Path procGpus, Path dev) {
        this.procGpus = procGpus;
        this.dev = dev;
    }

    public static GpuProbe system() {
        return new GpuProbe(Path.of("/proc/driver/nvidia/gpus"), Path.of("/dev"));
    }

    public int cudaDevices() {
        int fromProc = count(procGpus, null);
        return fromProc > 0 ? fromProc : count(dev, DEVICE_NODE);
    }

    private static int count(Path dir, Pattern names) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return (int) entries.filter(p -> names == null || names.matcher(p.getFileName().toString()).matches())
                    .count();
        } catch (IOException e) {
            return 0;
        }
    }
}
