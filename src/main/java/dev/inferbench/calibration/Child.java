package dev.inferbench.calibration;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * How the launcher's checks start a program (a run of this jar, a loop outside Java) and end it: its output to a log
 * file, its exit code waited for, or a SIGKILL. Tests give one that writes what a run would have written.
 */
public interface Child {
    /** A started program. */
    interface Started {
        /** SIGKILL, as {@code kill -9}: nothing of the program runs after it. */
        void kill();

        int waitFor() throws BenchException;
    }

    /** Starts {@code command} in {@code dir}, stdout and stderr appended to {@code log}. */
    Started start(List<String> command, Path dir, Path log) throws BenchException;

    /** Starts it and waits for its end. */
    default int run(List<String> command, Path dir, Path log) throws BenchException {
        return start(command, dir, log).waitFor();
    }

    /** Real processes. */
    static Child processes() {
        return (command, dir, log) -> {
            Process p;
            try {
                p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
                p.getOutputStream().close();
            } catch (IOException e) {
                throw new BenchException("cannot start " + command.get(0) + " (" + e.getMessage() + "); expected it"
                        + " on the PATH", e);
            }
            return new Started() {
                @Override
                public void kill() {
                    p.destroyForcibly(); // SIGKILL on Linux
                }

                @Override
                public int waitFor() throws BenchException {
                    try {
                        return p.waitFor();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new BenchException("interrupted while " + command.get(0) + " ran", e);
                    }
                }
            };
        };
    }
}
