package dev.inferbench.calibration;

import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a cell's resident set settles: one long fork (1 x 5 s warm-up, N x 10 s measured), its {@code mem.rss} in
 * each measured iteration (the iteration's time average), the growth from the second measured iteration to the last
 * (the first may still settle what warm-up began), and the fork's {@code mem.rss.peak.fork}. Exit 1 when the set grew
 * by more than the bound, 0 otherwise, 2 when the fork failed. This is how a growth of djl-pytorch's resident set was
 * found to be the Java heap's young generation filling for the first time, and checked gone (docs/engines.md).
 */
final class MemoryPlateau {
    static final String ARGUMENTS = "[--iterations 10] [--bound-mib 16] [JMH args; default -p model=resnet50"
            + " -p engine=djl-pytorch -p batchSize=1]";

    private MemoryPlateau() {
    }

    static int check(Path jar, List<String> args, Child child, PrintStream out) throws BenchException {
        int iterations = 10;
        double bound = 16;
        List<String> jmh = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if ((a.equals("--iterations") || a.equals("--bound-mib")) && i + 1 < args.size()) {
                String v = args.get(++i);
                if (!v.matches("[0-9]{1,6}")) {
                    throw new BenchException("calibrate memory-plateau: " + a + " '" + v + "' is not a whole number");
                }
                if (a.equals("--iterations")) {
                    iterations = Integer.parseInt(v);
                } else {
                    bound = Integer.parseInt(v);
                }
            } else {
                jmh.add(a);
            }
        }
        if (iterations < 3) {
            throw new BenchException("calibrate memory-plateau: --iterations must be 3 or more; found " + iterations);
        }
        if (jmh.isEmpty()) {
            jmh = List.of("-p", "model=resnet50", "-p", "engine=djl-pytorch", "-p", "batchSize=1");
        }
        Path work;
        try {
            work = Files.createTempDirectory("memory-plateau.");
        } catch (IOException e) {
            throw new BenchException("cannot make a temporary folder (" + e.getMessage() + ")", e);
        }
        List<String> command = new ArrayList<>(List.of(CalibrationTable.javaBinary(), "-jar", jar.toString(),
                "InferenceBenchmark"));
        command.addAll(jmh);
        command.addAll(List.of("-f", "1", "-wi", "1", "-w", "5s", "-i", Integer.toString(iterations), "-r", "10s",
                "--run-dir", work.resolve("run").toString()));
        Path log = work.resolve("fork.log");
        int code = child.run(command, Path.of("").toAbsolutePath(), log);
        Path result = work.resolve("run").resolve(RunLayout.RESULT);
        if (code != 0 || !Files.isRegularFile(result)) {
            out.println("memory-plateau: the fork failed (exit " + code + "); see " + log);
            return 2;
        }
        List<MeasuredCell> cells = JmhJson.read(result);
        JmhMetric rss = cells.isEmpty() ? null : cells.get(0).secondary().get("mem.rss");
        JmhMetric peak = cells.isEmpty() ? null : cells.get(0).secondary().get("mem.rss.peak.fork");
        if (rss == null || rss.forkCount() != 1) {
            out.println("memory-plateau: no mem.rss of one fork in " + result + "; see " + log);
            return 2;
        }
        return verdict(rss.iterationMeans()[0], peak == null ? Double.NaN : peak.score(), bound, out);
    }

    /** Prints each iteration's set and the growth after the first measured one; exit 1 above {@code bound} MiB. */
    static int verdict(double[] rss, double peak, double bound, PrintStream out) {
        for (int i = 0; i < rss.length; i++) {
            out.printf(java.util.Locale.ROOT, "iteration %2d  mem.rss %8.1f MiB%n", i + 1, rss[i]);
        }
        double grown = rss[rss.length - 1] - rss[1];
        out.printf(java.util.Locale.ROOT, "after the first measured iteration: %+.1f MiB over %d iterations (bound %.0f MiB); peak %.1f MiB%n",
                grown, rss.length - 2, bound, peak);
        return grown > bound ? 1 : 0;
    }
}
