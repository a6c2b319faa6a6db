package dev.inferbench.commits;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The programs a comparison of commits runs and where it runs them: each side's launcher and version query with
 * {@code java} (the JVM this runs in, so both sides measure on the one JVM the user chose) and {@code javaOptions}
 * ({@code INFERBENCH_JAVA_OPTS}), the builds with {@code mvn}, the worktrees with {@code git}, all from {@code cwd}.
 */
public record Tools(Path cwd, List<String> java, List<String> javaOptions, String mvn, String git) {
    public Tools {
        java = List.copyOf(java);
        javaOptions = List.copyOf(javaOptions);
    }

    /** The JVM this runs in, Maven and git from the PATH, the working directory this process started in. */
    public static Tools ofThisProcess() {
        String opts = System.getenv("INFERBENCH_JAVA_OPTS");
        List<String> options = opts == null || opts.isBlank() ? List.of() : List.of(opts.strip().split("\\s+"));
        return new Tools(Path.of("").toAbsolutePath(),
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()), options, "mvn", "git");
    }

    /** {@code java} with the options, then {@code args}. */
    List<String> javaCommand(List<String> extraOptions, List<String> args) {
        List<String> cmd = new ArrayList<>(java);
        cmd.addAll(javaOptions);
        cmd.addAll(extraOptions);
        cmd.addAll(args);
        return cmd;
    }
}
