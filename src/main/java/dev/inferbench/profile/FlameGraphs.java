package dev.inferbench.profile;

import java.util.ArrayList;
import dev.inferbench.BenchException;
import one.convert.Arguments;
import one.convert.FlameGraph;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Flame graphs from async-profiler recordings, through async-profiler's own converter: a fork's JFR to HTML
 * (forward: callers at the bottom; reverse: the hottest leaves at the bottom) and to collapsed stacks; collapsed
 * stacks of several forks summed into one graph; and the differential graph of two.
 */
public final class FlameGraphs {
    private FlameGraphs() {
    }

    /** Writes {@code <event>-forward.html}, {@code <event>-reverse.html} and {@code <event>.collapsed} next to the recording. */
    public static void fromRecording(Path jfr, String event, String title) throws BenchException {
        Path dir = jfr.getParent();
        try {
            JfrToFlame.convert(jfr.toString(), dir.resolve(event + "-forward.html").toString(),
                    args(event, "html", title, false));
            JfrToFlame.convert(jfr.toString(), dir.resolve(event + "-reverse.html").toString(),
                    args(event, "html", title + " (reverse)", true));
            JfrToFlame.convert(jfr.toString(), dir.resolve(event + ".collapsed").toString(),
                    args(event, "collapsed", title, false));
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot draw the " + event + " flame graph of " + jfr + ": " + e, e);
        }
    }

    /** The profiler engine the recording says it used for time samples: perf_events, ctimer, itimer, wall. */
    public static String engine(Path jfr) throws BenchException {
        try (JfrReader r = new JfrReader(jfr.toString())) {
            r.readAllEvents();
            return r.settings.getOrDefault("engine", "unknown");
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot read the recording " + jfr + ": " + e, e);
        }
    }

    /** The collapsed stacks of several forks as one graph (counts of equal stacks add up), HTML to {@code out}. */
    public static void merge(List<Path> collapsed, String title, boolean reverse, OutputStream out) throws BenchException {
        StringBuilder all = new StringBuilder();
        try {
            for (Path c : collapsed) {
                all.append(Files.readString(c, StandardCharsets.UTF_8));
                if (all.length() > 0 && all.charAt(all.length() - 1) != '\n') {
                    all.append('\n');
                }
            }
            FlameGraph g = new FlameGraph(args(null, "html", title, reverse));
            g.parseCollapsed(new StringReader(all.toString()));
            g.dump(out);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot merge the flame graphs " + collapsed + ": " + e, e);
        }
    }

    /**
     * The differential graph: {@code current}'s stacks, each frame coloured by how much hotter (red) or colder
     * (blue) it is than in {@code base}.
     */
    public static void diff(Path base, Path current, String title, OutputStream out) throws BenchException {
        try (Reader b = Files.newBufferedReader(base, StandardCharsets.UTF_8);
             Reader c = Files.newBufferedReader(current, StandardCharsets.UTF_8)) {
            Arguments a = args(null, "html", title, false);
            FlameGraph before = new FlameGraph(a);
            before.parseCollapsed(b);
            FlameGraph after = new FlameGraph(a);
            after.parseCollapsed(c);
            after.diff(before);
            after.dump(out);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot diff " + base + " and " + current + ": " + e, e);
        }
    }

    /**
     * The differential graph of two sets of collapsed stacks, each set summed into one graph first (the passes of a
     * comparison's two sides): {@code current}'s stacks coloured by how much hotter or colder than {@code base}.
     */
    public static void diff(List<Path> base, List<Path> current, String title, OutputStream out) throws BenchException {
        try {
            Arguments a = args(null, "html", title, false);
            FlameGraph before = new FlameGraph(a);
            before.parseCollapsed(new StringReader(concat(base)));
            FlameGraph after = new FlameGraph(a);
            after.parseCollapsed(new StringReader(concat(current)));
            after.diff(before);
            after.dump(out);
        } catch (IOException | RuntimeException e) {
            throw new BenchException("cannot diff " + base + " and " + current + ": " + e, e);
        }
    }

    private static String concat(List<Path> collapsed) throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path c : collapsed) {
            all.append(Files.readString(c, StandardCharsets.UTF_8));
            if (all.length() > 0 && all.charAt(all.length() - 1) != '\n') {
                all.append('\n');
            }
        }
        return all.toString();
    }

    private static Arguments args(String event, String output, String title, boolean reverse) {
        List<String> a = new ArrayList<>(List.of("-o", output, "--title", title));
        if (event != null) {
            a.add("--" + event);
        }
        if (FlameSettings.NATIVEMEM.equals(event)) {
            // what was allocated and not freed, weighed in bytes
            a.add("--leak");
            a.add("--total");
        }
        if (reverse) {
            a.add("--reverse");
        }
        return new Arguments(a.toArray(String[]::new));
    }
}
