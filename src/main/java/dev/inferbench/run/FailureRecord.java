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

    /**
     * Where a JVM crash happened, from the fatal-error banner in the fork's output: {@code " (SIGSEGV in
     * [libjvm.so+0xed2f94] Unsafe_PutLong+0x124)"}; empty when the output has no banner.
     */
    static String crashSite(List<String> tail) {
        String signal = null;
        String frame = null;
        for (int i = 0; i < tail.size(); i++) {
            String l = tail.get(i).strip();
            if (signal == null && l.matches("#\\s+SIG[A-Z]+ .*")) {
                signal = l.replaceFirst("#\\s+", "").split(" ")[0];
            }
            if (l.startsWith("# Problematic frame") && i + 1 < tail.size()) {
                frame = tail.get(i + 1).replaceFirst("#\\s+\\S+\\s+", "").strip();
            }
        }
        if (signal == null) {
            return "";
        }
        return " (" + signal + (frame != null ? " in " + frame : "") + ")";
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
