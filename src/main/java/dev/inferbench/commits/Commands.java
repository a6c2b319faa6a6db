package dev.inferbench.commits;

import dev.inferbench.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** A program run to its end: its exit code and what it printed (stdout and stderr together). */
record Commands(int code, String output) {

    /** Runs {@code cmd} in {@code dir}; the output is kept, or appended to {@code log} where one is given. */
    static Commands run(List<String> cmd, Path dir, Path log) throws Stop {
        return run(cmd, dir, log, true);
    }

    /** {@link #run} keeping stdout only. */
    static Commands stdout(List<String> cmd, Path dir) throws Stop {
        return run(cmd, dir, null, false);
    }

    private static Commands run(List<String> cmd, Path dir, Path log, boolean withErr) throws Stop {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        if (withErr) {
            pb.redirectErrorStream(true);
        } else {
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        if (log != null) {
            try {
                AtomicFile.refuseLink(log);
            } catch (IOException e) {
                throw Stop.failure("cannot write " + log + ": " + e.getMessage());
            }
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            String output = "";
            if (log == null) {
                try (InputStream in = p.getInputStream()) {
                    output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return new Commands(p.waitFor(), output);
        } catch (IOException e) {
            throw Stop.failure("cannot run " + cmd.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Stop.failure("interrupted while running " + String.join(" ", cmd));
        }
    }

    /** {@link #run} that must succeed: its output, stripped. */
    static String output(List<String> cmd, Path dir) throws Stop {
        Commands c = run(cmd, dir, null);
        if (c.code() != 0) {
            throw Stop.failure("unexpected failure (exit " + c.code() + ") of: " + String.join(" ", cmd) + ": "
                    + c.output().strip().lines().reduce((a, b) -> b).orElse(""));
        }
        return c.output().strip();
    }

    boolean ok() {
        return code == 0;
    }
}
