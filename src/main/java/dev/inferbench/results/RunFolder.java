package dev.inferbench.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** {@code results/<yyyyMMdd-HHmmss>[-<git short sha>]/}: one folder per run, never reused. */
public final class RunFolder {
    public static final String JMH_JSON = "jmh-result.json";
    public static final String SUMMARY = "summary.txt";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolder() {
    }

    public static Path create(Path resultsRoot, LocalDateTime now) throws IOException {
        String base = STAMP.format(now) + gitShortSha().map(s -> "-" + s).orElse("");
        Files.createDirectories(resultsRoot);
        Path dir = resultsRoot.resolve(base);
        for (int i = 2; Files.exists(dir); i++) {
            dir = resultsRoot.resolve(base + "-" + i);
        }
        return Files.createDirectory(dir);
    }

    /** The commit being measured, when the working directory is in a git checkout and git is installed. */
    public static Optional<String> gitShortSha() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0 && out.matches("[0-9a-f]{4,40}")) {
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
