package dev.inferbench.commits;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one build of a bisect: GOOD's checkout, built once and then given to every step's comparison as a built side,
 * so that no step builds it again. Tests give one that only writes a jar.
 */
@FunctionalInterface
public interface GoodBuild {
    /**
     * @param checkout the worktree of GOOD
     * @param offline  build without the network (mvn -o)
     * @param log      where the build's output goes
     * @return whether it built
     */
    boolean build(Path checkout, boolean offline, Path log) throws BenchException;

    /** {@code mvn -q [-o] package -DskipTests} in the checkout, as the README builds the jar. */
    static GoodBuild maven() {
        return (checkout, offline, log) -> {
            List<String> cmd = new ArrayList<>(List.of("mvn", "-q"));
            if (offline) {
                cmd.add("-o");
            }
            cmd.addAll(List.of("package", "-DskipTests"));
            try {
                Process p = new ProcessBuilder(cmd).directory(checkout.toFile()).redirectErrorStream(true)
                        .redirectOutput(log.toFile()).start();
                p.getOutputStream().close();
                return p.waitFor() == 0;
            } catch (IOException e) {
                throw new BenchException("cannot run " + String.join(" ", cmd) + " (" + e.getMessage() + ")", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchException("interrupted while GOOD was built", e);
            }
        };
    }
}
