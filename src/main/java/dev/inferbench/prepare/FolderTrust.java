package dev.inferbench.prepare;

import dev.inferbench.BenchException;
import dev.inferbench.cell.Cell;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.results.RunLayout;
import dev.inferbench.run.Plan;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a resumed plan may ask of this machine. A run folder may come from elsewhere (a CI shard, a colleague's
 * upload), and its {@code plan.json} is parsed again as the run's JMH options: a folder must not be able to choose a
 * program, an agent, a native library or a file outside itself. Options that could ({@code -jvm}, JVM options other
 * than plain heap, flag and property settings, {@code -prof} with a path or a profiler not built in, {@code -o} and
 * {@code -rff} outside the folder, a properties file other than the one this command reads, a model or data path
 * outside the folder) are refused in one line, unless the user gives the same option again on the command line or
 * says {@code --trust-folder}.
 */
public final class FolderTrust {
    /** JMH's own profilers and inferbench's: made from the jar, never from a name the folder chooses freely. */
    private static final Set<String> BUILT_IN_PROFILERS = Set.of("gc", "stack", "comp", "cl", "safepoints", "pauses",
            "perf", "perfnorm", "perfasm", "perfc2c", "xperfasm", "dtraceasm", "jfr", "async", "mempool");
    private static final Pattern SAFE_JVM_OPTION = Pattern.compile(
            "-Xm[sxn]\\d+[kKmMgGtT]?|-Xss\\d+[kKmM]?|-Xint|-Xcomp|-Xbatch|-Xshare:(off|auto|on)"
                    + "|-XX:[+-]\\w+|-XX:\\w+=(\\d[\\d.]*[kKmMgG%]?|true|false)"
                    + "|-D[\\w.-]+=[^/\\s]*|-D[\\w.-]+|-ea|-da|-esa|-dsa|-server");
    private static final Pattern RISKY_PROPERTY =
            Pattern.compile("(?i)-D[^=]*(path|lib|dir|file|agent|class|home|command|config)[^=]*(=.*)?");
    private static final Pattern PATH_OPTION_KEY = Pattern.compile("(?i)(^|[;,:])(libPath|dir|file|output|outputDir)=");

    private FolderTrust() {
    }

    /** A plan's request that reaches outside the folder: what it is and the options that ask for it. */
    record Request(String what, List<String> option) {
    }

    /**
     * Refuses a plan that asks for anything outside {@code dir} that {@code repeated} (the resume's own command line)
     * does not ask for as well.
     *
     * @param localConfig the properties file this command would read now; empty for the copy inside the jar
     */
    public static void check(Path dir, Plan plan, List<String> repeated, boolean trusted, Optional<Path> localConfig,
                             Set<String> registeredModels) throws BenchException {
        if (trusted) {
            return;
        }
        for (Request r : requests(dir, plan, localConfig, registeredModels)) {
            if (!r.option().isEmpty() && containsInOrder(repeated, r.option())) {
                continue;
            }
            String again = r.option().isEmpty() ? "" : "give " + String.join(" ", quoted(r.option()))
                    + " again on the command line or ";
            throw new BenchException(dir.resolve(RunLayout.PLAN) + " asks for " + r.what() + "; a run folder is data"
                    + " and chooses nothing outside itself: " + again + "add --trust-folder if the folder is yours");
        }
    }

    /**
     * What a resume's own options {@code given} hold besides {@code -f N} and options of the plan given again
     * (option and value as the plan has them, or a {@code -p} of the plan's parameters).
     */
    public static List<String> notRepeated(List<String> given, Plan plan) {
        List<String> left = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String a = given.get(i);
            if (i + 1 < given.size() && (a.equals("-f") || containsInOrder(plan.args(), List.of(a, given.get(i + 1)))
                    || a.equals("-p") && paramOfPlan(plan, given.get(i + 1)))) {
                i++;
            } else {
                left.add(a);
            }
        }
        return left;
    }

    private static boolean paramOfPlan(Plan plan, String option) {
        String[] nv = option.split("=", 2);
        return nv.length == 2 && plan.cells().stream().allMatch(c -> c.params().containsKey(nv[0].strip()))
                && List.of(nv[1].split(",")).stream().allMatch(v -> plan.cells().stream()
                .anyMatch(c -> v.equals(c.params().get(nv[0].strip()))));
    }

    /** Every request of {@code plan} that reaches outside {@code dir}, in the plan's order. */
    static List<Request> requests(Path dir, Plan plan, Optional<Path> localConfig, Set<String> registeredModels) {
        List<Request> out = new ArrayList<>();
        List<String> args = plan.args();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String v = i + 1 < args.size() ? args.get(i + 1) : "";
            List<String> pair = List.of(a, v);
            switch (a) {
                case "-jvm" -> out.add(new Request("-jvm " + v + " (a program to run)", pair));
                case "-jvmArgs", "-jvmArgsAppend", "-jvmArgsPrepend" -> {
                    for (String token : v.trim().split("\\s+")) {
                        if (!token.isEmpty() && (!SAFE_JVM_OPTION.matcher(token).matches()
                                || RISKY_PROPERTY.matcher(token).matches())) {
                            out.add(new Request(a + " " + token + " (a JVM option that can load code or write files)",
                                    pair));
                        }
                    }
                }
                case "-prof" -> {
                    String name = v.split(":", 2)[0];
                    String options = v.contains(":") ? v.substring(v.indexOf(':') + 1) : "";
                    if (!BUILT_IN_PROFILERS.contains(name) && !name.startsWith("dev.inferbench.")) {
                        out.add(new Request("-prof " + v + " (a profiler not built into the jar)", pair));
                    } else if (options.contains("/") || PATH_OPTION_KEY.matcher(options).find()) {
                        out.add(new Request("-prof " + v + " (a library or folder by path)", pair));
                    }
                }
                case "-o", "-rff" -> {
                    if (!inside(dir, v)) {
                        out.add(new Request(a + " " + v + " (a file outside the folder to write)", pair));
                    }
                }
                default -> {
                    continue;
                }
            }
            i++;
        }
        if (plan.config() != null && !plan.config().equals(
                localConfig.map(p -> p.toAbsolutePath().toString()).orElse(null))) {
            out.add(new Request("the properties file " + plan.config() + " (not the " + BenchConfig.FILE_NAME
                    + " this command reads)", List.of()));
        }
        for (Cell cell : plan.cells()) {
            for (Map.Entry<String, String> p : cell.params().entrySet()) {
                String value = p.getValue();
                boolean registered = p.getKey().equals("model") && registeredModels.contains(value);
                if (!registered && looksLikePath(value) && !inside(dir, value)) {
                    out.add(new Request("the file " + value + " (" + p.getKey() + ", outside the folder)",
                            List.of("-p", p.getKey() + "=" + value)));
                    break;
                }
            }
        }
        return out;
    }

    private static boolean looksLikePath(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (v.contains("/") || v.endsWith(".onnx") || v.endsWith(".npy") || v.endsWith(".pb") || v.startsWith("~")) {
            return true;
        }
        try {
            return !v.isBlank() && Files.exists(Path.of(value));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static boolean inside(Path dir, String file) {
        try {
            Path f = Path.of(file).toAbsolutePath().normalize();
            return f.startsWith(dir.toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /**
     * Whether {@code given} holds {@code option} as consecutive arguments; for {@code -p name=value}, a {@code -p}
     * of that parameter whose values include that value.
     */
    private static boolean containsInOrder(List<String> given, List<String> option) {
        for (int i = 0; i + 1 < given.size(); i++) {
            if (!given.get(i).equals(option.get(0))) {
                continue;
            }
            String v = given.get(i + 1);
            if (v.equals(option.get(1))) {
                return true;
            }
            if (option.get(0).equals("-p")) {
                String[] want = option.get(1).split("=", 2);
                String[] have = v.split("=", 2);
                if (have.length == 2 && have[0].strip().equals(want[0])
                        && List.of(have[1].split(",")).contains(want[1])) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> quoted(List<String> option) {
        return option.stream().map(s -> s.isEmpty() || s.contains(" ") ? "'" + s + "'" : s).toList();
    }
}
