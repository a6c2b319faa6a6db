package dev.inferbench.calibration;

import dev.inferbench.BenchException;
import dev.inferbench.Json;
import dev.inferbench.results.jmh.JmhJson;
import dev.inferbench.results.jmh.JmhMetric;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.stats.Percentiles;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The harness's TPOT against a plain greedy loop outside Java on the same decoder file: GenerationBenchmark (ORT's
 * Java binding, through inferbench) and {@code tools/tpot-crosscheck/loop.c} (ORT's C API on the very
 * libonnxruntime.so the harness loads) or {@code loop.js} (ORT's Node.js binding), with the same prompt and output
 * length, batch 1, threads, warm-up and measured time in one-second windows, in rounds that interleave the two (other,
 * java; then java, other; ...), each side a fresh process per round. The loops are outside on purpose: a cross-check
 * by code that is not ours. Each round prints both sides' TPOT two ways (the mean over the measured time, the median
 * of the windows') and the argmax's time (gen.choice); the end, per figure, the medians over the rounds and the ratio
 * harness / other (the median of the rounds' ratios, its range, and the ratio of the medians). The preparation
 * ({@link TpotSides}) builds or installs the other side once, at build time; nothing reaches a network after it.
 */
final class TpotCrosscheck {
    static final String ARGUMENTS = "[--against c|node] MODEL.onnx [ROUNDS=5] [PROMPT_LEN=128] [OUTPUT_LEN=64]"
            + " [THREADS=1] [WARMUP_S=2] [MEASURE_S=6]";

    /** One side's round: mean TPOT, median of the windows' TPOT and the argmax's time, all in ms. */
    record Figures(double tpot, double windowMedian, double choice) {
    }

    /** A side that runs one round. */
    @FunctionalInterface
    interface Side {
        Figures round(int round) throws BenchException;
    }

    /** The check's settings. */
    record Settings(String against, Path model, int rounds, int prompt, int output, int threads, int warmup,
                    int measure) {
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = Json.mapper();

    private TpotCrosscheck() {
    }

    static Settings parse(List<String> given) throws BenchException {
        List<String> args = new ArrayList<>(given);
        String against = "node";
        if (!args.isEmpty() && args.get(0).equals("--against")) {
            against = args.size() > 1 ? args.get(1) : "";
            args.subList(0, Math.min(2, args.size())).clear();
            if (!against.equals("c") && !against.equals("node")) {
                throw new BenchException("--against takes c or node; found '" + against + "'");
            }
        }
        if (args.isEmpty() || args.size() > 7) {
            throw new BenchException("calibrate tpot-crosscheck takes " + ARGUMENTS);
        }
        Path model = Path.of(args.get(0)).toAbsolutePath().normalize();
        int[] n = {5, 128, 64, 1, 2, 6};
        for (int i = 1; i < args.size(); i++) {
            if (!args.get(i).matches("[1-9][0-9]{0,5}")) {
                throw new BenchException("expected whole numbers >= 1; found '" + args.get(i) + "'");
            }
            n[i - 1] = Integer.parseInt(args.get(i));
        }
        if (n[2] < 2) {
            throw new BenchException("OUTPUT_LEN must be 2 or more: TPOT needs a second token; found " + n[2]);
        }
        if (n[0] < 3) {
            throw new BenchException("ROUNDS must be 3 or more; found " + n[0]);
        }
        return new Settings(against, model, n[0], n[1], n[2], n[3], n[4], n[5]);
    }

    static int check(Path jar, List<String> args, PrintStream out) throws BenchException {
        Settings s = parse(args);
        if (!Files.isRegularFile(s.model())) {
            throw new BenchException("model file not found: " + s.model() + "; expected an .onnx decoder in Optimum's"
                    + " layout");
        }
        Path root = Path.of("").toAbsolutePath();
        Path work = root.resolve(Path.of("results", "tpot-crosscheck",
                java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss")
                        .format(java.time.LocalDateTime.now(java.time.ZoneOffset.UTC))));
        try {
            Files.createDirectories(work);
        } catch (IOException e) {
            throw new BenchException("cannot make " + work + " (" + e.getMessage() + ")", e);
        }
        TpotSides sides = new TpotSides(root, jar, s, work, Child.processes(), out);
        Side other = sides.other();
        Side java = sides.harness();
        rounds(s, other, java, out);
        out.println("[tpot-crosscheck] every round's output in " + work);
        return 0;
    }

    /** The rounds, interleaved, each printed as it ends; then the summary. */
    static void rounds(Settings s, Side other, Side java, PrintStream out) throws BenchException {
        List<Figures> o = new ArrayList<>();
        List<Figures> j = new ArrayList<>();
        String name = s.against();
        for (int i = 1; i <= s.rounds(); i++) {
            boolean otherFirst = i % 2 == 1;
            Figures a = otherFirst ? other.round(i) : java.round(i);
            Figures b = otherFirst ? java.round(i) : other.round(i);
            Figures of = otherFirst ? a : b;
            Figures jf = otherFirst ? b : a;
            o.add(of);
            j.add(jf);
            out.println(String.format(Locale.ROOT, "[tpot-crosscheck] round %d (%s): TPOT %s %.4f ms, harness %.4f ms,"
                    + " harness/%s %.4f; median of 1 s windows %.4f / %.4f (%.4f); argmax %.1f / %.1f us", i,
                    otherFirst ? name + ", java" : "java, " + name, name, of.tpot(), jf.tpot(), name,
                    jf.tpot() / of.tpot(), of.windowMedian(), jf.windowMedian(), jf.windowMedian() / of.windowMedian(),
                    of.choice() * 1e3, jf.choice() * 1e3));
        }
        summary(name, o, j).forEach(out::println);
    }

    /** Per figure: the medians over the rounds, and harness / other as the median of the ratios and their range. */
    static List<String> summary(String name, List<Figures> other, List<Figures> java) {
        List<String> lines = new ArrayList<>();
        record Figure(String what, ToDoubleFunction<Figures> f) {
        }
        for (Figure fig : List.of(new Figure("TPOT, mean over the measured time", Figures::tpot),
                new Figure("TPOT, median of the 1 s windows", Figures::windowMedian),
                new Figure("the step less its argmax (TPOT mean - argmax)", x -> x.tpot() - x.choice()))) {
            double[] o = other.stream().mapToDouble(fig.f()).toArray();
            double[] j = java.stream().mapToDouble(fig.f()).toArray();
            double[] ratios = new double[o.length];
            for (int i = 0; i < o.length; i++) {
                ratios[i] = j[i] / o[i];
            }
            double mo = Percentiles.median(o);
            double mj = Percentiles.median(j);
            lines.add(String.format(Locale.ROOT, "%s, median over %d rounds: %s %.4f ms, harness %.4f ms", fig.what(),
                    o.length, name, mo, mj));
            lines.add(String.format(Locale.ROOT, "  harness / %s: %.4f (median of the rounds' ratios; range %.4f-%.4f),"
                    + " ratio of the medians %.4f", name, Percentiles.median(ratios),
                    Arrays.stream(ratios).min().orElse(Double.NaN), Arrays.stream(ratios).max().orElse(Double.NaN),
                    mj / mo));
        }
        return lines;
    }

    /** The loop's JSON: tpotMs, windowTpotMs (one per 1 s window) and choiceMs. */
    static Figures loopFigures(Path json) throws BenchException {
        try {
            JsonNode d = MAPPER.readTree(json.toFile());
            List<Double> windows = new ArrayList<>();
            d.path("windowTpotMs").forEach(w -> windows.add(w.asDouble()));
            if (!d.has("tpotMs") || !d.has("choiceMs") || windows.isEmpty()) {
                throw new BenchException("no tpotMs, windowTpotMs or choiceMs in " + json);
            }
            return new Figures(d.get("tpotMs").asDouble(),
                    Percentiles.median(windows.stream().mapToDouble(Double::doubleValue).toArray()),
                    d.get("choiceMs").asDouble());
        } catch (IOException e) {
            throw new BenchException("cannot read " + json + " (" + e.getMessage() + ")", e);
        }
    }

    /** The harness's fork: its gen.tpot, the median of its iterations' gen.tpot, and its gen.choice. */
    static Figures harnessFigures(Path result) throws BenchException {
        List<MeasuredCell> cells = JmhJson.read(result);
        JmhMetric tpot = cells.isEmpty() ? null : cells.get(0).secondary().get("gen.tpot");
        JmhMetric choice = cells.isEmpty() ? null : cells.get(0).secondary().get("gen.choice");
        if (tpot == null || choice == null) {
            throw new BenchException("no gen.tpot or gen.choice in " + result);
        }
        double[] all = Arrays.stream(tpot.iterationMeans()).flatMapToDouble(Arrays::stream).toArray();
        return new Figures(tpot.score(), Percentiles.median(all), choice.score());
    }
}
