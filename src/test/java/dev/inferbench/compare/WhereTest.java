package dev.inferbench.compare;

import dev.inferbench.profile.LayerTimes;
import dev.inferbench.profile.OperatorPass;
import dev.inferbench.stats.Interval;
import dev.inferbench.stats.RatioOfMeans;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The where table from crafted operator passes of both sides: a planted change in one operator (or outside the
 * operators) is named first with the interval the paired differences give, operators with noise only are not, and
 * over many comparisons of a build with itself the table names something at about the family's error rate.
 */
class WhereTest {
    private static final double CONFIDENCE = 0.95;

    /** A side's true ms per call by node; a pass adds noise per node and a drift shared by the pair's two passes. */
    private static final Map<String, double[]> NODES = new LinkedHashMap<>();

    static {
        // node -> {ms per call, noise sd}; the module and operator are in the name: module/operator
        NODES.put("layer1.0/Conv", new double[]{0.80, 0.020});
        NODES.put("layer1.0/Relu", new double[]{0.05, 0.004});
        NODES.put("layer2.0/Conv", new double[]{0.60, 0.020});
        NODES.put("/MaxPool", new double[]{0.10, 0.005});
        NODES.put("/Gemm", new double[]{0.20, 0.010});
    }

    private static final double OUTSIDE_MS = 0.05;

    @Test
    void aPlantedOperatorIsNamedFirstWithThePairedInterval() {
        Random rnd = new Random(11);
        int n = 12;
        Sides sides = Sides.of(rnd, n, Map.of("layer2.0/Conv", 0.12), 0);
        List<OperatorPass.Profiled> base = sides.base();
        List<OperatorPass.Profiled> head = sides.head();
        Where w = Where.of(base, head, CONFIDENCE);

        assertThat(w.pairs()).isEqualTo(n);
        assertThat(w.named()).extracting(Where.Change::name).containsExactly("Conv");
        Where.Change conv = w.named().get(0);
        assertThat(conv.module()).isEqualTo("layer2.0");
        assertThat(conv.change().contains(0.12 * 1)).isTrue();
        // the interval is the t interval of the per-pair differences of Conv's two nodes, at the row's confidence in a
        // family of 5 rows (Conv, Relu, MaxPool, Gemm and the time outside them)
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = ms(head.get(i), "Conv") - ms(base.get(i), "Conv");
        }
        double mean = mean(d);
        double sd = Math.sqrt(sumSq(d, mean) / (n - 1));
        double t = new TDistribution(null, n - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 5 / 2);
        assertThat(conv.change().estimate()).isCloseTo(mean, within(1e-12));
        assertThat(conv.change().lower()).isCloseTo(mean - t * sd / Math.sqrt(n), within(1e-12));
        assertThat(conv.change().upper()).isCloseTo(mean + t * sd / Math.sqrt(n), within(1e-12));
        assertThat(conv.change().confidence()).isCloseTo(1 - 0.05 / 5, within(1e-12));
        // the planted change is most of the call's change (the rest is noise in the other rows)
        assertThat(conv.share().estimate()).isBetween(0.8, 1.2);
        // its share comes with Fieller's interval at the row's confidence: its change per pair over the call's
        double[] call = new double[n];
        for (int i = 0; i < n; i++) {
            call[i] = head.get(i).callMs() - base.get(i).callMs();
        }
        Interval share = RatioOfMeans.fieller(d, call, 1 - 0.05 / 5);
        assertThat(conv.share()).isEqualTo(share);
        assertThat(share.known()).isTrue();
        assertThat(share.contains(1.0)).isTrue();
        assertThat(w.unnamed()).extracting(Where.Change::name)
                .containsExactlyInAnyOrder("Relu", "MaxPool", "Gemm", Where.OUTSIDE);
        assertThat(w.call().change().contains(0.12)).isTrue();
        // what the one named row explains, with Fieller's interval over the same pairs: the true share, 1, is in it
        assertThat(w.namedShare().estimate()).isCloseTo(conv.share().estimate(), within(1e-12));
        assertThat(w.namedShare().known()).isTrue();
        assertThat(w.namedShare().contains(1.0)).isTrue();
        assertThat(w.namedShare().confidence()).isEqualTo(CONFIDENCE);
    }

    /**
     * The planted operator explains all of the call's change (the other rows hold noise only), yet its point share
     * wanders with the call's noise from table to table; the named rows' interval holds the truth at its confidence.
     */
    @Test
    void theNamedShareIntervalHoldsThePlantedShareAtItsConfidence() {
        Random rnd = new Random(71);
        int trials = 1000;
        int held = 0;
        int rowHeld = 0;
        int tables = 0;
        for (int trial = 0; trial < trials; trial++) {
            Sides sides = Sides.of(rnd, 10, Map.of("layer3.0/Conv", 0.09), 0);
            Where w = Where.of(sides.base(), sides.head(), CONFIDENCE);
            if (!w.named().stream().map(Where.Change::name).toList().equals(List.of("Conv"))) {
                continue; // another row named by chance: its share is then not the planted one's
            }
            tables++;
            // the expected change is 0.09 x the mean drift, as is the call's: the true share is 1
            if (!w.namedShare().known() || w.namedShare().contains(1.0)) {
                held++;
            }
            Interval row = w.named().get(0).share(); // the same ratio at the row's confidence, 99 % in a family of 5
            if (!row.known() || row.contains(1.0)) {
                rowHeld++;
            }
        }
        assertThat(tables).isGreaterThan(900);
        // binomial sd at 95 % of 900 is 0.73 %: 92.5 % and 97.5 % are over three of them away
        assertThat(held / (double) tables).isBetween(0.925, 0.975);
        // at 99 %, 0.33 %: 98 % is three of them below
        assertThat(rowHeld / (double) tables).isGreaterThanOrEqualTo(0.98);
    }

    @Test
    void aTableThatNamesNothingHasNoNamedShare() {
        Random rnd = new Random(8);
        Sides sides = Sides.of(rnd, 10, Map.of(), 0);
        Where w = Where.of(sides.base(), sides.head(), CONFIDENCE);

        assertThat(w.named()).isEmpty();
        assertThat(w.namedShare()).isNull();
    }

    @Test
    void anOperatorOnlyOneSideRunsCountsZeroOnTheOther() {
        Random rnd = new Random(3);
        Sides sides = Sides.of(rnd, 8, Map.of("layer3.0/Conv", 0.3), 0); // a node the base does not have
        Where w = Where.of(sides.base(), sides.head(), CONFIDENCE);

        assertThat(w.named()).extracting(Where.Change::name).first().isEqualTo("Conv");
        assertThat(w.named().get(0).module()).isEqualTo("layer3.0");
        assertThat(w.named().get(0).change().contains(0.3)).isTrue();
    }

    @Test
    void aChangeOutsideTheOperatorsIsNamedAsSuch() {
        Random rnd = new Random(5);
        Sides sides = Sides.of(rnd, 10, Map.of(), 0.15); // a copy of the input in Java before each call
        Where w = Where.of(sides.base(), sides.head(), CONFIDENCE);

        assertThat(w.named()).extracting(Where.Change::name).containsExactly(Where.OUTSIDE);
        assertThat(w.named().get(0).module()).isEmpty();
        assertThat(w.named().get(0).share().estimate()).isBetween(0.8, 1.2);
    }

    /**
     * A build against itself: with each row at the family's corrected confidence, a table names anything in at most
     * about 5 % of comparisons (without the correction, 5 rows at 95 % each would name something in about 23 %).
     */
    @Test
    void comparisonsOfABuildWithItselfNameNothingButAtTheFamilysRate() {
        Random rnd = new Random(2024);
        int trials = 2000;
        int namedAny = 0;
        for (int trial = 0; trial < trials; trial++) {
            Sides sides = Sides.of(rnd, 10, Map.of(), 0);
            if (!Where.of(sides.base(), sides.head(), CONFIDENCE).named().isEmpty()) {
                namedAny++;
            }
        }
        // binomial sd at 5 % of 2000 is about 1 %: 7 % is two of them above; 23 % would fail
        assertThat(namedAny / (double) trials).isLessThan(0.07);
    }

    /**
     * {@code n} pairs of passes, both sides of a pair at the same drift (the machine's speed during that pair), the
     * head with {@code extra} ms in the named nodes and {@code outsideExtra} ms outside the operators.
     */
    private record Sides(List<OperatorPass.Profiled> base, List<OperatorPass.Profiled> head) {
        static Sides of(Random rnd, int n, Map<String, Double> extra, double outsideExtra) {
            List<OperatorPass.Profiled> base = new ArrayList<>();
            List<OperatorPass.Profiled> head = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                double drift = 1 + 0.05 * rnd.nextGaussian();
                base.add(pass(rnd, drift, Map.of(), 0));
                head.add(pass(rnd, drift, extra, outsideExtra));
            }
            return new Sides(base, head);
        }
    }

    /** One side's pass: each node at its true time times the pair's drift plus its noise, plus any planted extra. */
    private static OperatorPass.Profiled pass(Random rnd, double drift, Map<String, Double> extra, double outsideExtra) {
        List<LayerTimes.Layer> layers = new ArrayList<>();
        double kernels = 0;
        Map<String, double[]> nodes = new LinkedHashMap<>(NODES);
        extra.forEach((node, ms) -> nodes.merge(node, new double[]{ms, 0.01}, (a, b) -> new double[]{a[0] + b[0], a[1]}));
        for (Map.Entry<String, double[]> e : nodes.entrySet()) {
            String module = e.getKey().substring(0, e.getKey().indexOf('/'));
            String op = e.getKey().substring(e.getKey().indexOf('/') + 1);
            double ms = Math.max(0, e.getValue()[0] * drift + e.getValue()[1] * rnd.nextGaussian());
            kernels += ms;
            layers.add(new LayerTimes.Layer(e.getKey(), e.getKey(), module, op, op, ms, 0));
        }
        double call = kernels + (OUTSIDE_MS + outsideExtra) * drift + 0.005 * rnd.nextGaussian();
        return new OperatorPass.Profiled("b.infer", Map.of("model", "m"), 100, call,
                new LayerTimes("cell", 100, kernels, layers, List.of(), null));
    }

    private static double ms(OperatorPass.Profiled p, String operator) {
        return p.layers().layers().stream().filter(l -> l.operator().equals(operator))
                .mapToDouble(LayerTimes.Layer::msPerRun).sum();
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double sumSq(double[] v, double m) {
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return s;
    }
}
