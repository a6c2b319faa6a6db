package dev.inferbench.run;

import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A fork's own folder while it runs: where its JVM's crash log goes, and its removal when nothing is left in it. */
final class ForkFolder {
    private ForkFolder() {
    }

    /** The system property that tells a fork's JVM its fork number (what a planted disturbance is aimed by). */
    static final String FORK_PROPERTY = "inferbench.fork";

    /**
     * The fork's options with its number ({@code -Dinferbench.fork=N}) and its JVM crash log ({@code hs_err_pid*.log})
     * written into the fork's own folder rather than the working directory, where a crash would otherwise leave it; a
     * user's own {@code -XX:ErrorFile} stands.
     */
    static Options forkOptions(Options fork, Path forkDir, int number) {
        List<String> append = new ArrayList<>(fork.getJvmArgsAppend().orElse(List.of()));
        boolean own = Stream.of(fork.getJvmArgs(), fork.getJvmArgsPrepend(), fork.getJvmArgsAppend())
                .flatMap(o -> o.orElse(List.of()).stream())
                .anyMatch(a -> a.startsWith("-XX:ErrorFile="));
        append.add("-D" + FORK_PROPERTY + "=" + number);
        if (!own) {
            append.add("-XX:ErrorFile=" + forkDir.toAbsolutePath().resolve("hs_err_pid%p.log"));
        }
        return new OptionsBuilder().parent(fork).jvmArgsAppend(append.toArray(String[]::new)).build();
    }

    static List<Path> crashLogs(Path forkDir) throws IOException {
        try (Stream<Path> s = Files.list(forkDir)) {
            return s.filter(p -> p.getFileName().toString().matches("hs_err_pid\\d+\\.log")).sorted().toList();
        }
    }

    static void deleteIfEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            if (s.findAny().isEmpty()) {
                Files.delete(dir);
            }
        }
    }

}
