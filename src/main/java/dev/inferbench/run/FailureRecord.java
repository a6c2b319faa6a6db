package dev.inferbench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The text kept for a failed fork: the reason on the first line, then the fork's output tails, then the summary of
 * any JVM crash log (hs_err) the fork left, which is moved next to the record.
 */
final class FailureRecord {
    private FailureRecord() {
    }

    static String text(String reason, List<String> tail, List<Path> crashLogs, Path failedDir) throws IOException {
        StringBuilder sb = new StringBuilder(reason).append('\n');
        if (!tail.isEmpty()) {
            sb.append("\nOutput of the fork (last lines):\n");
            tail.forEach(l -> sb.append(l).append('\n'));
        }
        for (Path log : crashLogs) {
            Files.createDirectories(failedDir);
            Path kept = failedDir.resolve(log.getFileName());
            Files.move(log, kept, StandardCopyOption.REPLACE_EXISTING);
            sb.append("\nJVM crash log ").append(kept).append(":\n");
            summary(kept).forEach(l -> sb.append(l).append('\n'));
        }
        return sb.toString();
    }

    /** The lines of an hs_err file that say what crashed and where. */
    static List<String> summary(Path hsErr) throws IOException {
        List<String> lines = Files.readAllLines(hsErr);
        return lines.stream().limit(40)
                .filter(l -> l.startsWith("#  ") && !l.startsWith("#   ") || l.startsWith("# Problematic frame")
                        || l.startsWith("# C  ") || l.startsWith("# J  ") || l.startsWith("# V  "))
                .limit(8).toList();
    }
}
