package dev.inferbench.profile;

import dev.inferbench.BenchException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * ONNX Runtime's Java binding extracts its native libraries to a temporary file and deletes it once loaded, so a
 * profiler later finds no file to read symbols from and native frames stay unnamed. For profiled forks the
 * libraries are kept in the cache instead and ORT is pointed at them ({@code onnxruntime.native.<lib>.path}).
 */
final class OrtLibraries {
    private OrtLibraries() {
    }

    /** The fork JVM options that load ORT from the cache; none on a platform the bundled jar lacks. */
    static List<String> keep(Path cacheRoot) throws BenchException {
        String platform = platform();
        if (platform == null) {
            return List.of();
        }
        NativeLibraryCache cache = new NativeLibraryCache(cacheRoot, OrtLibraries.class.getClassLoader());
        List<String> args = new ArrayList<>();
        for (String lib : List.of("onnxruntime", "onnxruntime4j_jni")) {
            String file = "lib" + lib + ".so";
            Path kept = cache.extractByDigest("ai/onnxruntime/native/" + platform + "/" + file, "onnxruntime/" + platform);
            args.add("-Donnxruntime.native." + lib + ".path=" + kept);
        }
        return args;
    }

    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            return null;
        }
        return arch.equals("amd64") || arch.equals("x86_64") ? "linux-x64" : arch.equals("aarch64") ? "linux-aarch64" : null;
    }
}
