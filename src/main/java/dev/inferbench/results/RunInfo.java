package dev.inferbench.results;

import dev.inferbench.AtomicFile;
import dev.inferbench.config.BenchConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;

/** run.properties: what was run, on what, from which commit; enough to tell two run folders apart later. */
public final class RunInfo {
    private final Properties props = new Properties();

    private RunInfo() {
    }

    public static RunInfo start(String[] argv, BenchConfig config) {
        RunInfo info = new RunInfo();
        Properties p = info.props;
        p.setProperty("command", "java -jar benchmarks.jar " + String.join(" ", argv));
        p.setProperty("config", config.source());
        p.setProperty("git.sha", RunFolder.gitShortSha().orElse("unknown"));
        p.setProperty("git.dirty", RunFolder.gitDirty().map(String::valueOf).orElse("unknown"));
        p.setProperty("java.version", System.getProperty("java.version"));
        p.setProperty("java.vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        p.setProperty("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        p.setProperty("cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
        p.setProperty("started", Instant.now().toString());
        return info;
    }

    public void finish(Path runDir, int cells, int failedCells, int skippedCells) throws IOException {
        props.setProperty("cells.skipped", Integer.toString(skippedCells));
        props.setProperty("finished", Instant.now().toString());
        props.setProperty("cells.measured", Integer.toString(cells));
        props.setProperty("cells.failed", Integer.toString(failedCells));
        AtomicFile.write(RunLayout.of(runDir).runInfo(), out -> props.store(out, "inferbench run"));
    }
}
