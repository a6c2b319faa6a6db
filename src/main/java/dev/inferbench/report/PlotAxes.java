package dev.inferbench.report;

import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Annotation;
import org.knowm.xchart.style.AxesChartStyler;

import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.font.TextLayout;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;

/**
 * Honest axes for the report's charts. Rates, sizes and times are read against zero: their axis starts at 0 and ends
 * at the first round number at or above the largest value, so that XChart's ticks fall on round numbers (left to
 * itself it spans the data, and a line through two points gets two ticks at the points' own values, "25.485,
 * 185.92"). Latency
 * percentiles go on a "nines" axis, as latency tools draw them: x = -log10(1 - p/100), so p50, p90, p99 and p99.9
 * are evenly spaced and the tail is not squeezed into the last pixels of a 0-100 axis.
 */
final class PlotAxes {
    /** The steps of a round axis end, times a power of ten: close enough that the data fill most of the axis. */
    private static final double[] ROUND = {1, 1.2, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10};
    /** The median's place on the nines axis, where XChart's grid (whole numbers there) puts no tick. */
    static final double P50 = nines(50);
    /** Above this ratio of the largest to the smallest value a percentile curve is drawn on a log axis. */
    static final double LOG_RATIO = 30;

    private PlotAxes() {
    }

    /** The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 3.5 ... 9 times a power of ten) at or above v. */
    static double roundUp(double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            return 1;
        }
        double scale = Math.pow(10, Math.floor(Math.log10(v)));
        for (double r : ROUND) {
            if (r * scale >= v * (1 - 1e-12)) {
                return r * scale;
            }
        }
        return 10 * scale;
    }

    /**
     * The step between ticks of an axis from 0 to {@code end}: 1, 2 or 5 times a power of ten, the smallest that
     * leaves at most {@code most} steps (for the axes drawn by hand, where XChart does not lay out the ticks).
     */
    static double tickStep(double end, int most) {
        if (!(end > 0) || Double.isInfinite(end) || most < 1) {
            return 1;
        }
        double scale = Math.pow(10, Math.floor(Math.log10(end / most)));
        for (double r : new double[] {1, 2, 5, 10}) {
            if (end / (r * scale) <= most * (1 + 1e-12)) {
                return r * scale;
            }
        }
        return 10 * scale;
    }

    /** The y axis from 0 to a round number above the chart's largest y. */
    static void zeroBasedY(XYChart chart) {
        zeroBasedY(chart.getStyler(), chart.getSeriesCollection().stream()
                .flatMapToDouble(s -> Arrays.stream(s.getYData())));
    }

    /** The y axis from 0 to a round number above the tallest bar and its interval. */
    static void zeroBasedY(CategoryChart chart) {
        zeroBasedY(chart.getStyler(), chart.getSeriesCollection().stream().flatMapToDouble(PlotAxes::barTops));
    }

    /** The x axis from 0 to a round number above the chart's largest x. */
    static void zeroBasedX(XYChart chart) {
        double max = chart.getSeriesCollection().stream().flatMapToDouble(s -> Arrays.stream(s.getXData()))
                .filter(Double::isFinite).max().orElse(Double.NaN);
        chart.getStyler().setXAxisMin(0.0);
        if (max > 0) {
            chart.getStyler().setXAxisMax(roundUp(max));
        }
    }

    private static void zeroBasedY(AxesChartStyler st, DoubleStream values) {
        double max = values.filter(Double::isFinite).max().orElse(Double.NaN);
        st.setYAxisMin(0.0);
        if (max > 0) {
            st.setYAxisMax(roundUp(max));
        }
    }

    private static DoubleStream barTops(CategorySeries s) {
        double[] y = s.getYData();
        double[] e = s.getExtraValues();
        if (e == null) {
            return Arrays.stream(y);
        }
        return DoubleStream.concat(Arrays.stream(y),
                IntStream.range(0, Math.min(y.length, e.length)).mapToDouble(i -> y[i] + e[i]));
    }

    /** A percentile's place on the nines axis: 0 for p0, 0.301 for p50, 1 for p90, 2 for p99, 3 for p99.9. */
    static double nines(double p) {
        return -Math.log10(1 - p / 100);
    }

    /** The percentile at a whole place of the nines axis ("0", "90", "99", "99.9"), else a blank. */
    static String ninesLabel(double x) {
        long k = Math.round(x);
        if (Math.abs(x - k) > 1e-9 || k < 0) {
            return " "; // XChart cannot lay out an empty label; a space takes no room
        }
        return k == 0 ? "0" : k == 1 ? "90" : k == 2 ? "99" : "99." + "9".repeat((int) k - 2);
    }

    /**
     * The x axis of a percentile chart whose series lie on the nines axis: from p0 to the next whole nine above the
     * highest percentile drawn, labelled in percent at each nine, with p50 marked by a line and label of its own.
     */
    static void ninesX(XYChart chart) {
        double max = chart.getSeriesCollection().stream().flatMapToDouble(s -> Arrays.stream(s.getXData()))
                .filter(Double::isFinite).max().orElse(2);
        int nines = Math.max(2, (int) Math.ceil(max - 1e-9));
        AxesChartStyler st = chart.getStyler();
        st.setXAxisMin(0.0);
        st.setXAxisMax((double) nines);
        st.setXAxisTickLabelsFormattingFunction(PlotAxes::ninesLabel);
        // a grid step of one nine: XChart picks the step from the spacing it is asked to leave between ticks
        st.setXAxisTickMarkSpacingHint((int) (Plots.WIDTH * 0.8 / nines));
        chart.addAnnotation(new Mark(P50, "50"));
    }

    /** Latency on a log axis when the curves span more than {@link #LOG_RATIO} (p0 to p99.9 often do), else from 0. */
    static boolean latencyY(XYChart chart) {
        double[] y = chart.getSeriesCollection().stream().flatMapToDouble(s -> Arrays.stream(s.getYData()))
                .filter(d -> Double.isFinite(d) && d > 0).toArray();
        double min = Arrays.stream(y).min().orElse(Double.NaN);
        double max = Arrays.stream(y).max().orElse(Double.NaN);
        if (max / min > LOG_RATIO) {
            chart.getStyler().setYAxisLogarithmic(true);
            return true;
        }
        zeroBasedY(chart);
        return false;
    }

    /**
     * A place on the x axis that XChart's grid of whole numbers does not reach: a grid line through the plot and a
     * label under the axis, in the axis's own font, colour and place.
     */
    static final class Mark extends Annotation {
        private final double x;
        private final String label;

        Mark(double x, String label) {
            super(false);
            this.x = x;
            this.label = label;
        }

        double x() {
            return x;
        }

        String label() {
            return label;
        }

        @Override
        public void paint(Graphics2D g) {
            AxesChartStyler st = (AxesChartStyler) styler;
            double sx = getXAxisScreenValue(x);
            double top = getYAxisScreenValueForMin();
            double bottom = getYAxisScreenValueForMax();
            g.setColor(st.getPlotGridLinesColor());
            g.setStroke(st.getPlotGridLinesStroke());
            g.draw(new Line2D.Double(sx, top, sx, bottom));
            Shape shape = outline(g, label);
            Rectangle2D b = shape.getBounds2D();
            // where XChart puts the x axis's labels: their bottoms one label height below the plot's margin, tick
            // marks and padding (the other labels are digits, as tall as "0")
            double y = bottom + st.getPlotMargin() + st.getAxisTickMarkLength() + st.getAxisTickPadding()
                    + outline(g, "0").getBounds().height;
            var at = g.getTransform();
            g.translate(sx - b.getWidth() / 2 - b.getX(), y - b.getY() - b.getHeight());
            g.setColor(st.getXAxisTickLabelsColor());
            g.fill(shape);
            g.setTransform(at);
            bounds = new Rectangle2D.Double(sx - b.getWidth() / 2, y - b.getHeight(), b.getWidth(), b.getHeight());
        }

        private Shape outline(Graphics2D g, String text) {
            return new TextLayout(text, ((AxesChartStyler) styler).getAxisTickLabelsFont(), g.getFontRenderContext())
                    .getOutline(null);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "mark %s at %.3f", label, x);
        }
    }
}
