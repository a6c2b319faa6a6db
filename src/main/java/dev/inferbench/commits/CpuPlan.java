package dev.inferbench.commits;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which CPUs each side's launcher (and so every fork JVM it starts) runs on: {@code --pin} puts every fork of both
 * sides on one list, {@code --duet} gives each side half of the CPUs (of the pinned list, else of all this process may
 * use), the halves swapping every pair. {@code threads=0} is the engine's default, all cores, and ONNX Runtime does
 * not reliably size its pool by the affinity mask, so a pinned cell is given the CPUs it has; more threads than CPUs
 * would measure the sides' threads queueing for one core, and is refused.
 *
 * @param cpus    the pinned CPUs (all usable ones with a duet and no pin); empty when nothing is pinned
 * @param halfA   the duet's first half as a taskset list, else null
 * @param halfB   the duet's second half
 * @param jmhArgs the JMH arguments with {@code -p threads=} fitted to the CPUs a side has
 */
record CpuPlan(List<Integer> cpus, String halfA, String halfB, List<String> jmhArgs) {
    private static final Pattern LIST = Pattern.compile("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

    static CpuPlan none(List<String> jmhArgs) {
        return new CpuPlan(List.of(), null, null, jmhArgs);
    }

    static CpuPlan of(CommitsRequest r, Path repo) throws Stop {
        if (r.keepBusy() != null && r.pin() == null) {
            throw Stop.badInput("--keep-busy needs --pin: the forks must run on other CPUs than the busy ones; expected"
                    + " e.g. --pin 1 --keep-busy 0");
        }
        if (r.pin() == null && !r.duet()) {
            return none(r.jmhArgs());
        }
        if (!onPath("taskset")) {
            throw Stop.badInput("--pin and --duet need taskset (util-linux); it is not on the PATH");
        }
        String allowed = allowedList();
        List<Integer> usable = cpus(allowed);
        List<Integer> cpus;
        if (r.pin() != null) {
            cpus = checkedCpus("--pin", r.pin(), usable, allowed);
            if (r.keepBusy() != null) {
                List<Integer> busy = checkedCpus("--keep-busy", r.keepBusy(), usable, allowed);
                if (busy.stream().anyMatch(cpus::contains)) {
                    throw Stop.badInput("--keep-busy " + r.keepBusy() + " and --pin " + r.pin() + " share a CPU;"
                            + " expected CPUs apart, e.g. --pin 1 --keep-busy 0");
                }
            }
        } else {
            cpus = usable;
        }
        int perSide = cpus.size();
        String halfA = null;
        String halfB = null;
        if (r.duet()) {
            // an odd CPU is left out: both sides must get as many CPUs, or the faster side is the one with more
            perSide = cpus.size() / 2;
            if (perSide < 1) {
                throw Stop.badInput("--duet needs at least 2 CPUs, one a side; it was given " + cpus.size() + " ("
                        + joined(cpus) + ")");
            }
            halfA = joined(cpus.subList(0, perSide));
            halfB = joined(cpus.subList(perSide, 2 * perSide));
        }
        String named = r.duet() ? "half of the duet's CPUs (" + halfA + " | " + halfB + ")"
                : "the pinned CPUs (" + joined(cpus) + ")";
        return new CpuPlan(cpus, halfA, halfB, fitThreads(r, repo, perSide, named));
    }

    /** The CPUs {@code side}'s fork of pair {@code pair} runs on, as a taskset list. */
    String cpusOf(String side, int pair) {
        if (halfA == null) {
            return joined(cpus);
        }
        boolean first = side.equals("base") == (pair % 2 == 1);
        return first ? halfA : halfB;
    }

    boolean pinned() {
        return !cpus.isEmpty();
    }

    private static List<String> fitThreads(CommitsRequest r, Path repo, int perSide, String named) throws Stop {
        List<String> jmh = r.jmhArgs();
        String threads = null;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < jmh.size(); i++) {
            String a = jmh.get(i);
            String next = i + 1 < jmh.size() ? jmh.get(i + 1) : "";
            if (a.equals("-p") && next.startsWith("threads=")) {
                threads = next.substring("threads=".length());
                i++;
            } else if (a.startsWith("-pthreads=")) {
                throw Stop.badInput("give threads as -p threads=N (two words) with --pin or --duet, not " + a);
            } else if (a.equals("--cells") && setsThreads(Path.of(next))) {
                throw Stop.badInput("--cells " + next + " sets threads; with --pin or --duet give them with"
                        + " -p threads=N so they can be fitted to the CPUs");
            } else {
                rest.add(a);
            }
        }
        if (String.join(" ", r.headArgs()).contains("threads=")) {
            throw Stop.badInput("--head-args sets threads; with --pin or --duet both sides take -p threads=N from the"
                    + " common arguments");
        }
        if (threads == null) {
            threads = defaultThreads(repo);
        }
        Set<Integer> fitted = new LinkedHashSet<>();
        for (String t : threads.split(",")) {
            if (t.isBlank()) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(t.strip());
            } catch (NumberFormatException e) {
                throw Stop.badInput("threads '" + t + "' is not a whole number");
            }
            if (n < 0) {
                throw Stop.badInput("threads '" + t + "' is not a whole number");
            }
            int fit = n == 0 ? perSide : n;
            if (fit > perSide) {
                throw Stop.badInput("threads=" + fit + " does not fit " + named + ": " + perSide
                        + " CPU(s) a side; use -p threads=" + perSide + " or fewer");
            }
            fitted.add(fit);
        }
        if (fitted.isEmpty()) {
            fitted.add(perSide);
        }
        rest.add("-p");
        rest.add("threads=" + fitted.stream().map(String::valueOf).collect(Collectors.joining(",")));
        return List.copyOf(rest);
    }

    private static boolean setsThreads(Path cells) {
        try {
            return Files.isRegularFile(cells) && Files.readAllLines(cells, StandardCharsets.UTF_8).stream()
                    .filter(l -> !l.strip().startsWith("#"))
                    .anyMatch(l -> Pattern.compile("(^|\\s)threads=").matcher(l).find());
        } catch (IOException e) {
            return false; // the launcher says what is wrong with the file
        }
    }

    /** The last {@code param.threads=} of the checkout's benchmarks.properties; empty where it has none. */
    private static String defaultThreads(Path repo) {
        try {
            return Files.readAllLines(repo.resolve("benchmarks.properties"), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith("param.threads=")).map(l -> l.substring("param.threads=".length()))
                    .reduce((a, b) -> b).orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    private static String allowedList() throws Stop {
        try {
            return Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> l.substring("Cpus_allowed_list:".length()).strip()).findFirst()
                    .orElseThrow(() -> Stop.failure("/proc/self/status says no Cpus_allowed_list"));
        } catch (IOException e) {
            throw Stop.failure("cannot read /proc/self/status: " + e.getMessage());
        }
    }

    /** The CPUs of {@code flag}'s taskset list ({@code --pin}, {@code --keep-busy}), each one this process may run on. */
    private static List<Integer> checkedCpus(String flag, String list, List<Integer> usable, String allowed)
            throws Stop {
        List<Integer> cpus = LIST.matcher(list).matches() ? cpus(list) : List.of();
        if (cpus.isEmpty()) {
            throw Stop.badInput(flag + " '" + list + "' is not a CPU list; expected e.g. 0, 0-1 or 0,2");
        }
        for (int c : cpus) {
            if (!usable.contains(c)) {
                throw Stop.badInput(flag + " '" + list + "': CPU " + c + " is not one this process may run on ("
                        + allowed + ")");
            }
        }
        return cpus;
    }

    /** A taskset list (0-2,5) as its CPUs, in order, each once. */
    static List<Integer> cpus(String list) {
        Set<Integer> out = new TreeSet<>();
        for (String part : list.split(",")) {
            String[] ends = part.split("-");
            int from = Integer.parseInt(ends[0]);
            int to = ends.length > 1 ? Integer.parseInt(ends[1]) : from;
            for (int c = from; c <= to; c++) {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    static String joined(List<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
