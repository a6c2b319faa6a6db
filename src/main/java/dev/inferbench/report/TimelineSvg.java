package dev.inferbench.report;

import dev.inferbench.tail.Cause;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import static dev.inferbench.report.SlowCallText.callTitle;
import static dev.inferbench.report.SlowCallText.ms;
import static dev.inferbench.report.SlowCallText.overlapsLines;
import static dev.inferbench.report.SlowCallText.words;
import static dev.inferbench.report.SvgMarkup.fmt;
import static dev.inferbench.report.SvgMarkup.line;
import static dev.inferbench.report.SvgMarkup.open;
import static dev.inferbench.report.SvgMarkup.rect;
import static dev.inferbench.report.SvgMarkup.text;

/**
 * One fork's slowest calls against what the JVM did, as two SVG drawings. The timeline: the fork's measured time on
 * one axis, each slow call a bar as tall as it took (coloured by its main cause, the fork's p99 a dashed line), and
 * under it a lane per cause with its episodes as bands (GC pauses, safepoints, the caller's waits, deoptimizations,
 * compilations; the time a call spent descheduled over that call). The close-ups: each slow call on an axis of its
 * own, from half its time before it to half after, with the episodes that overlapped it. Every bar and band has a
 * tooltip. Drawn by hand rather than by XChart, whose SVG carries no tooltip per element; the axes are
 * {@link PlotAxes}'s.
 */
final class TimelineSvg {
    static final int WIDTH = 1160;
    private static final int LEFT = 150;
    private static final int RIGHT = 24;
    private static final int PLOT = WIDTH - LEFT - RIGHT;
    private static final int LEGEND = 30;
    private static final int CALLS = 150;
    private static final int LANE = 18;
    private static final int LANE_GAP = 6;
    /** Bands narrower than this are widened to it: a µs event on a seconds axis is still seen. */
    private static final double LEAST_WIDTH = 1.5;
    /** Per lane, the longest episodes drawn; the tooltip of the lane's label says how many were left out. */
    static final int MOST_PER_LANE = 2000;
    private static final int CLOSE_PLOT = 560;
    private static final int CLOSE_BAND = 5;
    private static final String CALL_GREY = "#3b3b3b";

    private TimelineSvg() {
    }

    /** A cause's colour; {@code unexplained} and unknown keys grey. */
    static String colour(String cause) {
        Cause c = Cause.of(cause);
        if (c == null) {
            return "#8a8a8a";
        }
        return switch (c) {
            case GC -> "#d62728";
            case SAFEPOINT -> "#ff7f0e";
            case WAIT -> "#9467bd";
            case DESCHEDULED -> "#1f77b4";
            case DEOPT -> "#8c564b";
            case COMPILE -> "#2ca02c";
        };
    }

    /** The timeline of the fork's measured time. */
    static String timeline(ForkSlowCalls f) {
        double end = PlotAxes.roundUp(f.endMs());
        double top = PlotAxes.roundUp(Math.max(f.slowestMs(), Double.isFinite(f.p99Ms()) ? f.p99Ms() : 0));
        int callsTop = LEGEND + 12;
        int callsBottom = callsTop + CALLS;
        List<Cause> lanes = List.of(Cause.values());
        int lanesTop = callsBottom + 16;
        int lanesBottom = lanesTop + lanes.size() * (LANE + LANE_GAP);
        int height = lanesBottom + 44;
        SvgMarkup.Scale x = new SvgMarkup.Scale(0, end, LEFT, PLOT);
        StringBuilder s = new StringBuilder();
        s.append(open(WIDTH, height, "timeline of the slowest calls and the JVM's episodes"));
        double legendEnd = legend(s);
        if (Double.isFinite(f.p99Ms())) {
            s.append(line(legendEnd, 14, legendEnd + 24, 14, "#333333", "4 3"));
            s.append(text(legendEnd + 30, 18, "start", "tick", "the fork's p99, " + num(f.p99Ms()) + " ms"));
        }
        for (int i = 0; i < f.windows().size(); i++) {
            double[] w = f.windows().get(i);
            s.append(rect("window", x.at(w[0]), callsTop, Math.max(1, x.at(w[1]) - x.at(w[0])),
                    lanesBottom - callsTop, "#f1f4f8", 1, "measured iteration " + (i + 1) + ": " + ms(w[0]) + " to "
                            + ms(w[1]) + " ms"));
        }
        double yStep = PlotAxes.tickStep(top, 5);
        for (double v = 0; v <= top * (1 + 1e-9); v += yStep) {
            double y = callsBottom - v / top * CALLS;
            s.append(line(LEFT, y, LEFT + PLOT, y, "#dddddd", null));
            s.append(text(LEFT - 6, y + 4, "end", "tick", tick(v, yStep)));
        }
        s.append(text(14, callsTop + CALLS / 2.0, "middle", "axis", "call (ms)",
                "transform=\"rotate(-90 14 " + fmt(callsTop + CALLS / 2.0) + ")\""));
        for (ForkSlowCalls.Call c : byStart(f.calls())) {
            double h = Math.max(2, c.ms() / top * CALLS);
            s.append(rect("call", x.at(c.startMs()), callsBottom - h, Math.max(2, x.width(c.ms())), h,
                    colour(c.main()), 0.9, callTitle(c)));
        }
        if (Double.isFinite(f.p99Ms()) && f.p99Ms() <= top) {
            double y = callsBottom - f.p99Ms() / top * CALLS;
            s.append(line(LEFT, y, LEFT + PLOT, y, "#333333", "4 3"));
        }
        s.append(line(LEFT, callsBottom, LEFT + PLOT, callsBottom, "#555555", null));
        for (int i = 0; i < lanes.size(); i++) {
            Cause cause = lanes.get(i);
            double y = lanesTop + i * (LANE + LANE_GAP);
            List<Band> bands = bands(f, cause);
            int left = Math.max(0, bands.size() - MOST_PER_LANE);
            bands.sort(Comparator.comparingDouble(Band::ms).reversed());
            bands = bands.subList(0, bands.size() - left);
            s.append("<text class=\"lane\" x=\"").append(LEFT - 8).append("\" y=\"").append(fmt(y + LANE - 5))
                    .append("\" text-anchor=\"end\"><title>").append(esc(bands.size() + " drawn"
                            + (left > 0 ? ", " + left + " shorter ones left out" : ""))).append("</title>")
                    .append(esc(laneName(cause))).append("</text>\n");
            s.append(line(LEFT, y + LANE, LEFT + PLOT, y + LANE, "#e2e2e2", null));
            for (Band b : bands) {
                double from = Math.max(0, b.start());
                double to = Math.min(end, b.start() + b.ms());
                if (to < from) {
                    continue;
                }
                s.append(rect("mark " + cause.key(), x.at(from) - (b.ms() == 0 ? LEAST_WIDTH / 2 : 0), y,
                        Math.max(LEAST_WIDTH, x.width(to - from)), LANE, colour(cause.key()), 0.75, b.title()));
            }
        }
        axis(s, x, lanesBottom, "ms since the fork's first measured iteration began (shaded: measured iterations)");
        return s.append("</svg>\n").toString();
    }

    /** Each slow call on its own axis, slowest first, with what overlapped it. */
    static String closeUps(ForkSlowCalls f, int most) {
        List<ForkSlowCalls.Call> calls = f.calls().subList(0, Math.min(most, f.calls().size()));
        int width = WIDTH;
        int row = 16 + Cause.values().length * (CLOSE_BAND + 1) + 10;
        int height = 30 + calls.size() * row + 10;
        StringBuilder s = new StringBuilder(open(width, height, "each slowest call with what overlapped it"));
        s.append(text(LEFT, 18, "start", "axis", "Close up: each call (dark bar) from half its time before it to half"
                + " after it; under it, what overlapped it, a row per cause in the legend's colours"));
        for (int i = 0; i < calls.size(); i++) {
            ForkSlowCalls.Call c = calls.get(i);
            double y = 30 + i * row;
            double pad = Math.max(c.ms(), 1e-3) / 2; // a call of 0 ms (a clock's tick) still gets an axis
            SvgMarkup.Scale x = new SvgMarkup.Scale(c.startMs() - pad, c.endMs() + pad, LEFT, CLOSE_PLOT);
            s.append(rect("close-window", LEFT, y, CLOSE_PLOT, row - 6, "#f7f7f7", 1, null));
            s.append(text(LEFT - 8, y + 14, "end", "lane", "#" + (i + 1) + "  " + num(c.ms()) + " ms"));
            s.append(text(LEFT - 8, y + 28, "end", "tick", "at " + num(c.startMs()) + " ms"));
            s.append(rect("close-call", x.at(c.startMs()), y + 3, Math.max(2, x.width(c.ms())), 10, CALL_GREY, 1,
                    callTitle(c)));
            for (Cause cause : Cause.values()) {
                List<Band> bands = new ArrayList<>();
                for (Band b : bands(f, cause)) {
                    if (b.start() <= x.to() && b.start() + b.ms() >= x.from() && b.touches(c)) {
                        bands.add(b);
                    }
                }
                if (bands.isEmpty()) {
                    continue;
                }
                double by = y + 16 + cause.ordinal() * (CLOSE_BAND + 1); // each cause in the same place every row
                for (Band b : bands) {
                    double from = Math.max(x.from(), b.start());
                    double to = Math.min(x.to(), b.start() + b.ms());
                    s.append(rect("close-mark " + cause.key(), x.at(from) - (b.ms() == 0 ? 1 : 0), by,
                            Math.max(2, x.width(to - from)), CLOSE_BAND, colour(cause.key()), 0.85, b.title()));
                }
            }
            s.append(text(LEFT + CLOSE_PLOT + 12, y + 14, "start", "lane", "main cause: " + words(c.main())));
            List<String> lines = overlapsLines(c);
            for (int l = 0; l < lines.size(); l++) {
                s.append(text(LEFT + CLOSE_PLOT + 12, y + 30 + 14 * l, "start", "tick", lines.get(l)));
            }
        }
        return s.append("</svg>\n").toString();
    }

    /** A band of a lane: an episode, or the part of one call its thread was descheduled. */
    private record Band(double start, double ms, long thread, String title) {
        boolean touches(ForkSlowCalls.Call c) {
            return (thread == -1 || thread == c.thread()) && start <= c.endMs() && start + ms >= c.startMs();
        }
    }

    private static List<Band> bands(ForkSlowCalls f, Cause cause) {
        List<Band> out = new ArrayList<>();
        if (cause == Cause.DESCHEDULED) {
            // the thread's CPU clock says how long it was off its CPU during a call, not when: the band is the call
            for (ForkSlowCalls.Call c : f.calls()) {
                ForkSlowCalls.Overlap o = c.causes().get(cause.key());
                // less than a tenth of the call is not given; its tooltip still says it
                if (o != null && o.given()) {
                    out.add(new Band(c.startMs(), c.ms(), c.thread(), "descheduled " + num(o.ms()) + " ms of the "
                            + num(c.ms()) + " ms call at " + ms(c.startMs()) + " ms" + (Double.isFinite(c.offCpuMs())
                            ? "; off its CPU " + num(c.offCpuMs()) + " ms, pauses and waits included" : "")));
                }
            }
            return out;
        }
        for (ForkSlowCalls.Episode e : f.episodes()) {
            if (!e.cause().equals(cause.key())) {
                continue;
            }
            StringBuilder t = new StringBuilder(words(cause.key()));
            if (!e.what().isEmpty()) {
                t.append(": ").append(e.what());
            }
            t.append(e.ms() == 0 ? " at " + ms(e.startMs()) + " ms" : ", " + num(e.ms()) + " ms from "
                    + ms(e.startMs()) + " ms");
            t.append(e.thread() == -1 ? " (every thread)" : " (thread " + e.thread() + ")");
            List<String> during = new ArrayList<>();
            for (ForkSlowCalls.Call c : f.calls()) {
                if (e.during(c)) {
                    during.add("the " + num(c.ms()) + " ms call at " + ms(c.startMs()) + " ms"
                            + (e.ms() == 0 ? "" : " (overlap " + num(e.overlap(c)) + " ms)"));
                }
            }
            t.append(during.isEmpty() ? "; during no slow call shown" : "; during " + String.join(", ",
                    during.subList(0, Math.min(3, during.size())))
                    + (during.size() > 3 ? " and " + (during.size() - 3) + " more" : ""));
            out.add(new Band(e.startMs(), e.ms(), e.thread(), t.toString()));
        }
        return out;
    }

    private static String laneName(Cause c) {
        return c == Cause.WAIT ? "waits (the caller's)" : c.words();
    }

    private static List<ForkSlowCalls.Call> byStart(List<ForkSlowCalls.Call> calls) {
        List<ForkSlowCalls.Call> out = new ArrayList<>(calls);
        // the slowest drawn last, on top of any bar it overlaps
        out.sort(Comparator.comparingDouble(ForkSlowCalls.Call::ms));
        return out;
    }

    /** The causes' colours in a row; returns where the row ends. */
    private static double legend(StringBuilder s) {
        double x = LEFT;
        for (String key : Cause.columns()) {
            s.append(rect("legend", x, 8, 12, 12, colour(key), 0.9, null));
            String label = words(key);
            s.append(text(x + 16, 18, "start", "tick", label));
            x += 16 + label.length() * 6.8 + 18;
        }
        return x;
    }

    private static void axis(StringBuilder s, SvgMarkup.Scale x, double y, String title) {
        s.append(line(LEFT, y, LEFT + PLOT, y, "#555555", null));
        double step = PlotAxes.tickStep(x.to(), 10);
        for (double v = 0; v <= x.to() * (1 + 1e-9); v += step) {
            double px = x.at(v);
            s.append(line(px, y, px, y + 5, "#555555", null));
            s.append(text(px, y + 18, "middle", "tick", tick(v, step)));
        }
        s.append(text(LEFT + PLOT / 2.0, y + 36, "middle", "axis", title));
    }

    /** A tick's label: as many decimals as the step needs. */
    static String tick(double v, double step) {
        int decimals = step >= 1 ? 0 : (int) Math.ceil(-Math.log10(step) - 1e-9);
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    private static String num(double v) {
        return TailTable.num(v);
    }

    private static String esc(String s) {
        return HtmlReport.escape(s);
    }
}
