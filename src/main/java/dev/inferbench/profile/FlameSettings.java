package dev.inferbench.profile;

import dev.inferbench.BenchException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the user asked to profile: {@code --flame} (cpu + alloc), {@code --flame=cpu,wall,lock} (those events), or
 * JMH's own {@code -prof async:...} with the user's options, kept as given. {@link #asyncOptions} turns it into
 * the option string of one fork, whose output goes to that fork's own folder.
 *
 * @param events      the sampled events, first the one that drives the samples (cpu, wall, itimer, ctimer or a perf
 *                    event such as cache-misses), then secondary ones (alloc, lock); empty when {@code userOptions}
 *                    is set
 * @param userOptions the text after {@code -prof async:} as the user wrote it, or null for inferbench's own form
 * @param optional    {@code --flame-optional}: if profiling cannot be set up here, run unprofiled instead of stopping
 */
public record FlameSettings(List<String> events, String userOptions, boolean optional) {
    public static final List<String> DEFAULT_EVENTS = List.of("cpu", "alloc");
    static final Set<String> SECONDARY = Set.of("alloc", "lock");
    private static final Set<String> CPU_LIKE = Set.of("cpu", "itimer", "ctimer");

    public FlameSettings {
        events = List.copyOf(events);
    }

    /** {@code --flame} or {@code --flame=EVENTS}: the events, checked for form (the profiler checks the rest). */
    public static FlameSettings ofFlag(String value, boolean optional) throws BenchException {
        if (value == null || value.isBlank()) {
            return new FlameSettings(DEFAULT_EVENTS, null, optional);
        }
        Set<String> events = new LinkedHashSet<>();
        for (String e : value.split(",")) {
            String name = e.trim();
            if (!name.matches("[a-z][a-z0-9_.:-]*")) {
                throw new BenchException("unknown flame event '" + name + "'; expected cpu, alloc, wall, lock, itimer, "
                        + "ctimer or a perf event name, comma-separated (e.g. --flame=cpu,alloc)");
            }
            events.add(name);
        }
        List<String> primaries = events.stream().filter(e -> !SECONDARY.contains(e)).toList();
        if (primaries.size() > 1) {
            throw new BenchException("--flame=" + value + " asks for " + String.join(" and ", primaries)
                    + " at once; JMH's async profiler samples one of cpu, wall, itimer, ctimer or a perf event per "
                    + "fork (alloc and lock ride along); expected one of them");
        }
        List<String> ordered = new ArrayList<>(primaries);
        events.stream().filter(SECONDARY::contains).forEach(ordered::add);
        return new FlameSettings(ordered, null, optional);
    }

    /** JMH's {@code -prof async:OPTIONS} as the user wrote it ({@code options} may be empty). */
    public static FlameSettings ofUser(String options, boolean optional) {
        return new FlameSettings(List.of(), options == null ? "" : options, optional);
    }

    public boolean userGiven() {
        return userOptions != null;
    }

    /** The event that drives sampling: e.g. cpu; null when only alloc/lock were asked for or the user gave options. */
    public String primary() {
        return events.stream().filter(e -> !SECONDARY.contains(e)).findFirst().orElse(null);
    }

    /** Whether the cpu engine (perf_events or its fallback) is in play, so it is worth naming. */
    public boolean samplesCpu() {
        return userGiven() ? !userOptions.matches("(?s).*\\bevent=(?!cpu\\b).*") : CPU_LIKE.contains(primary());
    }

    /**
     * The options after {@code -prof async:} for one fork: inferbench's form samples every event into one JFR
     * file in {@code forkDir}; the user's form is kept as written, with {@code libPath} and {@code dir} added
     * only where the user gave none.
     */
    public String asyncOptions(Path library, Path forkDir) {
        List<String> parts = new ArrayList<>();
        if (userGiven()) {
            if (!userOptions.isBlank()) {
                parts.add(userOptions);
            }
            if (!hasOption(userOptions, "libPath")) {
                parts.add("libPath=" + library);
            }
            if (!hasOption(userOptions, "dir")) {
                parts.add("dir=" + forkDir);
            }
            return String.join(";", parts);
        }
        String primary = primary();
        parts.add("event=" + (primary != null ? primary : events.get(0)));
        for (String secondary : events) {
            if (SECONDARY.contains(secondary) && !secondary.equals(parts.get(0).substring("event=".length()))) {
                parts.add(secondary);
            }
        }
        parts.add("output=jfr");
        parts.add("libPath=" + library);
        parts.add("dir=" + forkDir);
        return String.join(";", parts);
    }

    private static boolean hasOption(String options, String name) {
        for (String part : options.split(";")) {
            if (part.trim().startsWith(name + "=")) {
                return true;
            }
        }
        return false;
    }
}
