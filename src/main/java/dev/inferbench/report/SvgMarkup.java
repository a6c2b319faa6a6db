package dev.inferbench.report;

import java.util.Locale;

/**
 * The SVG elements the report draws by hand ({@link TimelineSvg}): rectangles with a tooltip each, lines and text,
 * every text escaped, and a linear scale from ms to pixels.
 */
final class SvgMarkup {
    private SvgMarkup() {
    }

    /** A linear map from [from, to] ms onto [left, left + width] px. */
    record Scale(double from, double to, double left, double width) {
        double at(double ms) {
            return left + (ms - from) / (to - from) * width;
        }

        double width(double ms) {
            return ms / (to - from) * width;
        }
    }

    /** An inline SVG element's start tag, for the report's page. */
    static String open(int width, int height, String label) {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"" + width + "\" height=\""
                + height + "\" viewBox=\"0 0 " + width + " " + height + "\" role=\"img\" aria-label=\"" + esc(label)
                + "\" font-family=\"system-ui, sans-serif\">\n";
    }

    /** A rectangle with a tooltip ({@code title} null: none), its coordinates to a tenth of a pixel. */
    static String rect(String cls, double x, double y, double w, double h, String fill, double opacity,
                               String title) {
        String r = "<rect class=\"" + cls + "\" x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" width=\"" + fmt(w)
                + "\" height=\"" + fmt(h) + "\" fill=\"" + fill + "\"" + (opacity < 1 ? " fill-opacity=\""
                + fmt(opacity) + "\"" : "");
        return title == null ? r + "/>\n" : r + "><title>" + esc(title) + "</title></rect>\n";
    }

    static String line(double x1, double y1, double x2, double y2, String stroke, String dash) {
        return "<line x1=\"" + fmt(x1) + "\" y1=\"" + fmt(y1) + "\" x2=\"" + fmt(x2) + "\" y2=\"" + fmt(y2)
                + "\" stroke=\"" + stroke + "\"" + (dash == null ? "" : " stroke-dasharray=\"" + dash + "\"") + "/>\n";
    }

    static String text(double x, double y, String anchor, String cls, String text, String... extra) {
        return "<text class=\"" + cls + "\" x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" text-anchor=\"" + anchor + "\""
                + (extra.length == 0 ? "" : " " + extra[0]) + ">" + esc(text) + "</text>\n";
    }

    /** A coordinate: a tenth of a pixel is finer than any screen shows. */
    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String esc(String s) {
        return HtmlReport.escape(s);
    }
}
