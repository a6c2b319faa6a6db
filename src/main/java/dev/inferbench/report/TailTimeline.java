package dev.inferbench.report;

import dev.inferbench.BenchException;
import dev.inferbench.results.CellSummary;
import dev.inferbench.results.RunLayout;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The HTML report's "slowest calls" section: for each cell run with {@code --tail}, the fork whose slowest call was
 * the slowest, drawn from its {@code tail/<cell>/fork-N/slow-calls.json} ({@link TimelineSvg}): its slow calls against
 * the JVM's episodes on the fork's time axis, and each of the slowest ten close up. Nothing where no cell has one; a
 * fork's file that cannot be read is named in one line and the others drawn.
 */
final class TailTimeline {
    static final int CLOSE_UPS = 10;
    /**
     * The slowest calls drawn at most: a fork of microsecond calls has thousands above its p99, and a bar (with its
     * tooltip) each would make a page of megabytes that says no more.
     */
    static final int MOST_CALLS = 2000;
    private static final Pattern FORK = Pattern.compile("fork-(\\d{1,6})");

    /** One cell's drawing: its name, the fork drawn (null where none could be read), the other forks, problems. */
    record Part(String title, ForkSlowCalls drawn, List<ForkSlowCalls> others, List<String> problems) {
    }

    private final List<Part> parts;

    private TailTimeline(List<Part> parts) {
        this.parts = parts;
    }

    List<Part> parts() {
        return parts;
    }

    static TailTimeline of(ReportInput input, List<ReportRow> rows) {
        List<Part> parts = new ArrayList<>();
        for (ReportInput.Run run : input.runs()) {
            String suffix = input.runs().size() > 1 ? " (" + run.label() + ")" : "";
            for (ReportRow r : rows) {
                if (!r.run().equals(run.label())) {
                    continue;
                }
                Path cell = RunLayout.of(run.dir()).tail().resolve(r.cellId());
                if (Files.isDirectory(cell)) {
                    part(TailTable.label(CellSummary.of(r.source())) + suffix, cell, parts);
                }
            }
        }
        return new TailTimeline(parts);
    }

    private static void part(String title, Path cell, List<Part> parts) {
        List<ForkSlowCalls> forks = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Path dir : forkDirs(cell)) {
            Path file = dir.resolve(ForkSlowCalls.FILE);
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try {
                Matcher m = FORK.matcher(dir.getFileName().toString());
                forks.add(ForkSlowCalls.read(file, m.matches() ? Integer.parseInt(m.group(1)) : 0));
            } catch (BenchException e) {
                problems.add(e.getMessage());
            }
        }
        if (forks.isEmpty() && problems.isEmpty()) {
            return;
        }
        forks.sort(Comparator.comparingDouble(ForkSlowCalls::slowestMs).reversed()
                .thenComparingInt(ForkSlowCalls::fork));
        ForkSlowCalls drawn = forks.isEmpty() ? null : forks.get(0);
        parts.add(new Part(title, drawn, forks.isEmpty() ? List.of() : List.copyOf(forks.subList(1, forks.size())),
                List.copyOf(problems)));
    }

    private static List<Path> forkDirs(Path cell) {
        try (Stream<Path> s = Files.list(cell)) {
            return s.filter(p -> FORK.matcher(p.getFileName().toString()).matches() && Files.isDirectory(p))
                    .sorted(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().substring(5))))
                    .toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
    }

    void html(PrintWriter out) {
        if (parts.isEmpty()) {
            return;
        }
        out.println("<h2 id=\"slowest-calls\">Slowest calls</h2>");
        out.println("<p>Each <code>--tail</code> cell's fork with the slowest call. Top: its slow calls (the calls"
                + " above its p99, and at least its ten slowest) as bars on the fork's time axis, as tall as they took"
                + " and coloured by their main cause; under them, a lane per cause with what the JVM did meanwhile."
                + " A call whose bar stands over a band of its colour was slowed by that episode; one over no band"
                + " is unexplained. A band on the descheduled lane spans a call whose thread was off its CPU for a"
                + " tenth of it or more (the CPU clock tells how long, not when). Below: each of the slowest calls close up. Hover a bar or"
                + " band for its figures.</p>");
        for (Part p : parts) {
            out.println("<h3>" + HtmlReport.escape(p.title()) + "</h3>");
            p.problems().forEach(l -> out.println("<p class=\"tail-problem\">" + HtmlReport.escape(l) + "</p>"));
            ForkSlowCalls f = p.drawn();
            if (f == null) {
                continue;
            }
            out.println("<p>" + HtmlReport.escape(caption(p)) + "</p>");
            ForkSlowCalls shown = f.slowest(MOST_CALLS);
            out.println("<div class=\"timeline\">" + TimelineSvg.timeline(shown) + "</div>");
            out.println("<div class=\"timeline\">" + TimelineSvg.closeUps(shown, CLOSE_UPS) + "</div>");
        }
    }

    /** {@code fork 2 (of 2): slowest call 79.4 ms, p99 29.5 ms, 10 slow calls, 182 episodes; fork 1: slowest 64.7 ms}. */
    static String caption(Part p) {
        ForkSlowCalls f = p.drawn();
        StringBuilder sb = new StringBuilder("fork " + f.fork() + " (of " + (p.others().size() + 1) + " with slow"
                + " calls): slowest call " + TailTable.num(f.slowestMs()) + " ms, p99 " + TailTable.num(f.p99Ms())
                + " ms; " + (f.calls().size() > MOST_CALLS ? "the slowest " + MOST_CALLS + " of " : "")
                + f.calls().size() + " slow calls and " + f.episodes().size() + " JVM episodes drawn");
        if (!p.others().isEmpty()) {
            List<String> others = new ArrayList<>();
            for (ForkSlowCalls o : p.others()) {
                others.add(String.format(Locale.ROOT, "fork %d %s ms", o.fork(), TailTable.num(o.slowestMs())));
            }
            sb.append("; the other forks' slowest calls: ").append(String.join(", ", others));
        }
        return sb.toString();
    }
}
