package dev.inferbench.commits;

import dev.inferbench.BenchException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * git run in one folder, its output read whole: what the bisect and the ledger's {@code --since} ask of a repository.
 * A git that cannot be started is a {@link BenchException}; what git answers, exit code included, is the caller's to
 * judge, since a non-zero exit is an answer to many questions here ("not an ancestor", "no such commit").
 */
public final class GitCall {
    /** What one git command printed (stdout and stderr together, as a terminal shows them) and its exit code. */
    public record Answer(int code, String output) {
        public boolean ok() {
            return code == 0;
        }

        public String firstLine() {
            return output.lines().findFirst().orElse("").strip();
        }
    }

    private final Path dir;

    public GitCall(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public Answer run(String... args) throws BenchException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close(); // git asks nothing: an editor or a prompt would wait forever
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(p.waitFor(), output);
        } catch (IOException e) {
            throw new BenchException("cannot run git " + String.join(" ", args) + " (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted while git " + String.join(" ", args) + " ran", e);
        }
    }

    /** The full sha of a branch, tag or sha that names a commit; empty when it names none. */
    public Optional<String> commit(String rev) throws BenchException {
        Answer a = run("rev-parse", "--verify", "--quiet", rev + "^{commit}");
        return a.ok() ? Optional.of(a.firstLine()) : Optional.empty();
    }

    /** Whether {@code older} is {@code newer} or one of its ancestors. */
    public boolean isAncestor(String older, String newer) throws BenchException {
        return run("merge-base", "--is-ancestor", older, newer).ok();
    }

    /** A command that must succeed: its output, or a BenchException with git's first line. */
    public String must(String... args) throws BenchException {
        Answer a = run(args);
        if (!a.ok()) {
            throw new BenchException("git " + String.join(" ", args) + " ended with exit " + a.code() + ": "
                    + a.firstLine());
        }
        return a.output();
    }
}
