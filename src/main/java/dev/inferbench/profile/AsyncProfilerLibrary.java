package dev.inferbench.profile;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/**
 * async-profiler's native library for this platform, taken from the {@code tools.profiler:async-profiler} jar on
 * the classpath and kept in the cache ({@code async-profiler/<version>/<platform>/libasyncProfiler.so}), so that
 * JMH's {@code -prof async} gets a {@code libPath} with no setup.
 */
public final class AsyncProfilerLibrary {
    static final String LIBRARY = "libasyncProfiler.so";
    private static final String POM = "META-INF/maven/tools.profiler/async-profiler/pom.properties";

    private AsyncProfilerLibrary() {
    }

    /** The cached library, extracted on first use. */
    public static Path path(NativeLibraryCache cache, String os, String arch) throws BenchException {
        String platform = platform(os, arch);
        return cache.extract(platform + "/" + LIBRARY,
                "async-profiler/" + version(AsyncProfilerLibrary.class.getClassLoader()) + "/" + platform + "/" + LIBRARY);
    }

    public static Path path() throws BenchException {
        return path(new NativeLibraryCache(NativeLibraryCache.defaultRoot(), AsyncProfilerLibrary.class.getClassLoader()),
                System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /** The jar's folder for this platform; async-profiler bundles Linux x64/arm64 and macOS. */
    static String platform(String os, String arch) throws BenchException {
        String o = os.toLowerCase(Locale.ROOT);
        String a = arch.toLowerCase(Locale.ROOT);
        if (o.contains("mac")) {
            return "macos";
        }
        if (o.contains("linux") && (a.equals("amd64") || a.equals("x86_64"))) {
            return "linux-x64";
        }
        if (o.contains("linux") && (a.equals("aarch64") || a.equals("arm64"))) {
            return "linux-arm64";
        }
        throw new BenchException("async-profiler bundles no library for " + os + "/" + arch
                + "; expected linux x64, linux arm64 or macOS (run without --flame, or add --flame-optional)");
    }

    static String version(ClassLoader loader) throws BenchException {
        try (InputStream in = loader.getResourceAsStream(POM)) {
            if (in == null) {
                throw new BenchException("tools.profiler:async-profiler is not on the classpath; expected it in the jar");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new BenchException("cannot read async-profiler's version: " + e.getMessage(), e);
        }
    }
}
