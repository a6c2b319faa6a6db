package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.profile.FlameDiff;
import dev.inferbench.profile.LatencyRatio;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code flame diff RUN_A RUN_B}: differential flame graphs per cell profiled in both runs (what got hotter in B,
 * what colder), the cells profiled in one run only, and each common cell's latency B over A (the profiler's
 * overhead when A ran without --flame and B with it).
 */
final class FlameCommand implements Subcommand {

    @Override
    public String summary() {
        return "flame diff RUN_A RUN_B: differential flame graphs per cell (B against A) and latency B/A";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        if (args.size() != 3 || !args.get(0).equals("diff")) {
            throw new BenchException("flame expects: flame diff RUN_A RUN_B (two run folders under results/); found: "
                    + String.join(" ", args));
        }
        Path a = Path.of(args.get(1));
        Path b = Path.of(args.get(2));
        int graphs = FlameDiff.diff(a, b, out);
        List<String> latency = LatencyRatio.lines(a, b);
        latency.forEach(out::println);
        if (!latency.isEmpty()) {
            Path file = b.resolve(FlameDiff.FOLDER).resolve(a.toAbsolutePath().normalize().getFileName().toString())
                    .resolve("latency.txt");
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, String.join("\n", latency) + "\n", StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new BenchException("cannot write " + file + ": " + e.getMessage(), e);
            }
        }
        out.println("inferbench: " + graphs + " differential flame graph" + (graphs == 1 ? "" : "s") + " written");
        return Main.OK;
    }
}
