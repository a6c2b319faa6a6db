package dev.inferbench.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** {@code results/<yyyyMMdd-HHmmss>[-<git short sha>]/}: one folder per run, never reused. */
public final class RunFolder {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolder() {
    }

    public static Path create(Path resultsRoot, LocalDateTime now) throws IOException {
        return create(resultsRoot, now, "");
    }

    /** @param suffix appended to the name, e.g. {@code -shard-2-of-4} */
    public static Path create(Path resultsRoot, LocalDateTime now, String suffix) throws IOException {
        String base = STAMP.format(now) + gitShortSha().map(s -> "-" + s).orElse("") + suffix;
        Files.createDirectories(resultsRoot);
        Path dir = resultsRoot.resolve(base);
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(base + "-" + i);
        }
        return Files.createDirectory(dir);
    }

    /** Whether the checkout has uncommitted changes to tracked files; empty outside git. */
    public static Optional<Boolean> gitDirty() {
        return git("status", "--porcelain", "--untracked-files=no").map(s -> !s.isEmpty());
    }

    /** The commit being measured, when the working directory is in a git checkout and git is installed. */
    public static Optional<String> gitShortSha() {
        return git("rev-parse", "--short", "HEAD").filter(s -> s.matches("[0-9a-f]{4,40}"));
    }

    private static Optional<String> git(String... args) {
        try {
            List<String> cmd = new ArrayList<>(List.of("git"));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return Optional.of(out);
            }
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }
}
