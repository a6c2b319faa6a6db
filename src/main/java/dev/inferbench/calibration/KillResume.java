package dev.inferbench.calibration;

import dev.inferbench.results.RunLayout;
import dev.inferbench.BenchException;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.results.jmh.MeasuredCell;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kill -9 experiment: a multi-cell run whose launcher is killed with SIGKILL at random moments (2-7 s after each
 * start, seeded), resumed after each kill, then resumed to the end. For every kill: the forks landed just before it,
 * those the folder holds after it, and whether jmh-result.json is still valid JMH JSON (the forks it counts); at the
 * end the forks per cell. Nothing finished may be lost: exit 1 when a kill left fewer forks than had landed before
 * it, or an invalid jmh-result.json at the end (docs/running.md).
 */
final class KillResume {
    static final String ARGUMENTS = "[KILLS=5] [--seed 42] [JMH args; default two tiny models x 3 batch sizes, -f 3]";

    /** Waits between a start and its kill; tests wait for nothing. */
    @FunctionalInterface
    interface Sleep {
        void seconds(double s) throws BenchException;
    }

    private KillResume() {
    }

    /** The real wait. */
    static void sleep(double seconds) throws BenchException {
        try {
            Thread.sleep((long) (seconds * 1000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchException("interrupted", e);
        }
    }

    static int check(Path jar, List<String> args, Child child, Sleep sleep, Path work, PrintStream out)
            throws BenchException {
        int kills = 5;
        long seed = 42;
        List<String> jmh = new ArrayList<>(args);
        if (!jmh.isEmpty() && jmh.get(0).matches("[0-9]{1,4}")) {
            kills = Integer.parseInt(jmh.remove(0));
        }
        int s = jmh.indexOf("--seed");
        if (s >= 0) {
            if (s + 1 >= jmh.size() || !jmh.get(s + 1).matches("-?[0-9]{1,18}")) {
                throw new BenchException("calibrate kill-resume: --seed needs a whole number");
            }
            seed = Long.parseLong(jmh.get(s + 1));
            jmh.subList(s, s + 2).clear();
        }
        if (kills < 1) {
            throw new BenchException("calibrate kill-resume: KILLS must be 1 or more; found " + kills);
        }
        if (jmh.isEmpty()) {
            jmh = List.of("-p", "model=mlp-tiny,resnet-tiny", "-p", "batchSize=1,2,4", "-f", "3", "-wi", "1", "-w",
                    "200ms", "-i", "2", "-r", "300ms");
        }
        Path run = work.resolve("run");
        Path log = work.resolve("out.txt");
        Random random = new Random(seed);
        List<String> first = new ArrayList<>(List.of(CalibrationTable.javaBinary(), "-jar", jar.toString()));
        first.addAll(jmh);
        first.addAll(List.of("--run-dir", run.toString()));
        List<String> resume = List.of(CalibrationTable.javaBinary(), "-jar", jar.toString(), "--resume", run.toString());
        out.printf(java.util.Locale.ROOT, "%-5s %-9s %-15s %-14s %s%n", "kill", "after(s)", "landed before",
                "landed after", "forks in jmh-result.json");
        boolean lost = false;
        for (int k = 1; k <= kills; k++) {
            int delay = 2 + random.nextInt(6);
            Child.Started started = child.start(k == 1 ? first : resume, work, log);
            sleep.seconds(delay);
            long before = landed(run);
            started.kill();
            started.waitFor();
            sleep.seconds(0.5);
            long after = landed(run);
            lost |= after < before;
            out.printf(java.util.Locale.ROOT, "%-5d %-9d %-15d %-14d %s%n", k, delay, before, after, forks(run));
        }
        int code = child.run(resume, work, log);
        out.println("resumed to the end (exit " + code + "): " + landed(run) + " forks landed; forks per cell in"
                + " jmh-result.json:");
        boolean valid;
        try {
            for (MeasuredCell c : JmhJson.read(run.resolve(RunLayout.RESULT))) {
                out.println("   " + c.params().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                        .collect(Collectors.joining(" ")) + " forks = " + c.forks() + "  iterations per fork = "
                        + Stream.of(c.primary().iterationMeans()).map(f -> Integer.toString(f.length)).toList());
            }
            valid = true;
        } catch (BenchException e) {
            out.println("   jmh-result.json is not valid JMH JSON: " + e.getMessage());
            valid = false;
        }
        out.println("run folder: " + run);
        return lost || !valid ? 1 : 0;
    }

    /** The fork records the run folder holds. */
    static long landed(Path run) {
        Path forks = run.resolve("forks");
        if (!Files.isDirectory(forks)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(forks)) {
            return files.filter(p -> {
                String n = p.getFileName().toString();
                return n.startsWith("fork-") && n.endsWith(".record.json");
            }).count();
        } catch (IOException e) {
            return 0;
        }
    }

    /** The forks jmh-result.json counts, or "invalid". */
    static String forks(Path run) {
        try {
            return Long.toString(JmhJson.read(run.resolve(RunLayout.RESULT)).stream().mapToLong(MeasuredCell::forks)
                    .sum());
        } catch (BenchException | RuntimeException e) {
            return "invalid";
        }
    }
}
