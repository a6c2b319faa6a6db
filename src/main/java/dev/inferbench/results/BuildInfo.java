package dev.inferbench.results;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What this jar is: inferbench's version and the versions of JMH and the engines it was built with (written by the
 * build from the pom), and the commit it was built from (git.properties, written by the build; "unknown" for a build
 * outside git). Read from the jar's own files, so asking costs no engine start.
 */
public record BuildInfo(String version, String commit, String dirty, String jmh, String onnxruntime, String djl,
                        String pytorch) {
    static final String UNKNOWN = "unknown";

    public static BuildInfo ofThisJar() {
        Properties v = properties("/dev/inferbench/version.properties");
        Properties git = properties("/dev/inferbench/git.properties");
        return new BuildInfo(built(v, "version"), git.getProperty("git.commit.id", UNKNOWN),
                git.getProperty("git.dirty", UNKNOWN), built(v, "jmh"), built(v, "onnxruntime"), built(v, "djl"),
                built(v, "pytorch"));
    }

    /** The lines {@code --version} prints. */
    public String describe() {
        String shortCommit = commit.length() > 12 ? commit.substring(0, 12) : commit;
        return "inferbench " + version + " (commit " + shortCommit + ("true".equals(dirty) ? ", with local changes" : "")
                + ")\nJMH " + jmh + ", ONNX Runtime " + onnxruntime + ", DJL " + djl + " (PyTorch " + pytorch + "), Java "
                + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")";
    }

    /** A value the build filled in; a placeholder left as it was (a build that skipped filtering) is unknown. */
    private static String built(Properties p, String key) {
        String value = p.getProperty(key, UNKNOWN);
        return value.startsWith("${") ? UNKNOWN : value;
    }

    static Properties properties(String resource) {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(resource)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return p;
        }
        return p;
    }
}
