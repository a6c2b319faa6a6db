package dev.inferbench.engine;

import java.nio.file.Path;

/**
 * Deep Java Library's global settings, pinned so that DJL never reaches the network: offline mode, its cache under
 * the user's cache directory, usage tracking off, and no fallback engine (DJL's OnnxRuntime engine otherwise loads
 * a second engine, and downloads it if absent). DJL reads these once, when its {@code Engine} class first loads, so
 * {@link #configure} runs before any DJL class is touched; every DJL engine calls it first, in the launcher and in
 * each fork alike. A value the user set with {@code -D} is kept.
 */
final class DjlRuntime {
    static final String OFFLINE = "ai.djl.offline";
    static final String CACHE_DIR = "DJL_CACHE_DIR";
    static final String TRACKING = "OPT_OUT_TRACKING";
    static final String NO_ALTERNATIVE = "ai.djl.onnx.disable_alternative";
    static final String PYTORCH_INTEROP = "ai.djl.pytorch.num_interop_threads";

    private DjlRuntime() {
    }

    /** @param interOpThreads libtorch's inter-op pool, fixed once per process; 0 keeps libtorch's default */
    static synchronized void configure(int interOpThreads) {
        setIfAbsent(OFFLINE, "true");
        setIfAbsent(CACHE_DIR, defaultCacheDir().toString());
        setIfAbsent(TRACKING, "true");
        setIfAbsent(NO_ALTERNATIVE, "true");
        if (interOpThreads > 0) {
            setIfAbsent(PYTORCH_INTEROP, Integer.toString(interOpThreads));
        }
    }

    /** Our device as DJL names it; DJL classes load here, so {@link #configure} must have run. */
    static ai.djl.Device device(Device device) {
        return device.kind() == Device.Kind.CPU ? ai.djl.Device.cpu() : ai.djl.Device.gpu(device.index());
    }

    /** {@code $XDG_CACHE_HOME/inferbench/djl}, else {@code ~/.cache/inferbench/djl}. */
    static Path defaultCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("inferbench").resolve("djl");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null && System.getenv(key) == null) {
            System.setProperty(key, value);
        }
    }
}
