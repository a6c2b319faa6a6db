package dev.inferbench.report;

import dev.inferbench.cell.Cell;
import dev.inferbench.Numbers;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.results.CellSummary;
import org.knowm.xchart.XYChart;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The generation cells' two charts, per model: time to first token against prompt length (a line per batch size,
 * engine and any other setting that varies), and output tokens/s against batch size (a line per prompt length, engine
 * ...), each point a cell's mean over its forks (the intervals are in the generation table: from few forks they are
 * wide enough to flatten every line on a shared axis). A chart needs two values on its x axis; where the run has one,
 * {@link #absent} says so in a line under the generation table instead of drawing a single point.
 */
final class GenerationPlots {
    static final String TTFT_SUFFIX = "-ttft-vs-prompt";
    static final String TOKENS_SUFFIX = "-tokens-vs-batch";
    /** The order settings are named in a series' label; the rest follow in the cell's own order. */
    private static final List<String> ORDER = List.of(CellSpec.ENGINE, CellSpec.BATCH_SIZE, GenerationSpec.PROMPT_LEN,
            GenerationSpec.OUTPUT_LEN);

    /** A generation cell and the run it comes from (several runs in one report: a line per run). */
    record Labelled(String run, CellSummary cell) {
    }

    private GenerationPlots() {
    }

    static List<Plots.Plot> of(List<Labelled> all) {
        List<Plots.Plot> plots = new ArrayList<>();
        boolean multiRun = all.stream().map(Labelled::run).distinct().count() > 1;
        byModel(all).forEach((model, cells) -> {
            String slug = Cell.fileName(model, "[^A-Za-z0-9._-]");
            if (values(cells, GenerationSpec.PROMPT_LEN).size() > 1) {
                plots.add(chart(slug + TTFT_SUFFIX, model + ": time to first token vs prompt length (mean over forks)",
                        "prompt length (tokens)", "TTFT (ms)", cells, GenerationSpec.PROMPT_LEN, GenerationFigures.TTFT,
                        multiRun));
                PlotAxes.zeroBasedX((XYChart) plots.get(plots.size() - 1).chart()); // tokens: 0 is a prompt length
            }
            if (values(cells, CellSpec.BATCH_SIZE).size() > 1) {
                plots.add(chart(slug + TOKENS_SUFFIX, model + ": output tokens/s vs batch size", "batch size",
                        "output tokens/s", cells, CellSpec.BATCH_SIZE, GenerationFigures.OUTPUT_TOKENS, multiRun));
            }
        });
        return plots;
    }

    /** Why a chart is not drawn, per model: the run has one value on its axis. Empty when both are drawn. */
    static List<String> absent(List<CellSummary> cells) {
        List<String> lines = new ArrayList<>();
        byModel(cells.stream().map(c -> new Labelled("", c)).toList()).forEach((model, own) -> {
            Set<String> prompts = values(own, GenerationSpec.PROMPT_LEN);
            Set<String> batches = values(own, CellSpec.BATCH_SIZE);
            if (prompts.isEmpty()) {
                lines.add("plot of TTFT vs prompt length for " + model + " not drawn: its cells ran a prompt file,"
                        + " whose prompts give the lengths (gen.prompt.* in the report)");
            } else if (prompts.size() < 2) {
                lines.add("plot of TTFT vs prompt length for " + model + " not drawn: every cell has promptLen "
                        + String.join(",", prompts) + shorter(prompts));
            }
            if (batches.size() < 2) {
                int b = batches.isEmpty() ? 1 : (int) Numbers.orNaN(batches.iterator().next());
                lines.add("plot of output tokens/s vs batch size for " + model + " not drawn: every cell has batchSize "
                        + String.join(",", batches) + " (give two or more: -p batchSize=" + (b == 1 ? "1,4" : "1," + b)
                        + ")");
            }
        });
        return lines;
    }

    /**
     * The hint for a second prompt length: a shorter one beside the one run, which fits the model's context because
     * the longer one did (a longer one might not: llama-tiny's context is 256 tokens); none below 2 tokens.
     */
    static String shorter(Set<String> prompts) {
        if (prompts.size() != 1) {
            return "";
        }
        int p = (int) Numbers.orNaN(prompts.iterator().next());
        return p < 2 ? "" : " (give two or more: -p promptLen=" + p / 2 + "," + p + ")";
    }

    private static Map<String, List<Labelled>> byModel(List<Labelled> all) {
        Map<String, List<Labelled>> out = new TreeMap<>();
        for (Labelled l : all) {
            if (GenerationTable.isGeneration(l.cell())) {
                out.computeIfAbsent(l.cell().params().getOrDefault(CellSpec.MODEL, l.cell().benchmark()),
                        k -> new ArrayList<>()).add(l);
            }
        }
        return out;
    }

    /** The cell's params that were its settings: a prompt file's cell has no promptLen ({@link ConstantParams#shown}). */
    private static Map<String, String> settings(Labelled l) {
        return ConstantParams.shown(l.cell().params());
    }

    /** The values of {@code param} among the cells that have it as a setting. */
    private static Set<String> values(List<Labelled> cells, String param) {
        Set<String> out = new TreeSet<>(Comparator.comparingDouble(Numbers::orNaN).thenComparing(Comparator.naturalOrder()));
        cells.stream().map(l -> settings(l).get(param)).filter(v -> v != null).forEach(out::add);
        return out;
    }

    /** A line per setting through (x param, metric), x ascending, y from 0. */
    private static Plots.Plot chart(String name, String title, String xTitle, String yTitle, List<Labelled> cells,
                                    String xParam, String metric, boolean multiRun) {
        XYChart chart = Plots.xy(title, xTitle, yTitle);
        Set<String> varying = varying(cells);
        varying.remove(xParam);
        Map<String, TreeMap<Double, Double>> lines = new LinkedHashMap<>();
        for (Labelled l : cells) {
            double x = Numbers.orNaN(settings(l).get(xParam));
            double y = l.cell().extras().getOrDefault(metric, Double.NaN);
            if (!Double.isNaN(x) && !Double.isNaN(y)) {
                lines.computeIfAbsent(label(l, varying, multiRun), k -> new TreeMap<>()).put(x, y);
            }
        }
        lines.forEach((series, points) -> chart.addSeries(Plots.unique(chart, series), new ArrayList<>(points.keySet()),
                new ArrayList<>(points.values())));
        PlotAxes.zeroBasedY(chart);
        return new Plots.Plot(name, title, Plots.styled(chart));
    }

    /** The params whose value differs between the model's generation cells. */
    private static Set<String> varying(List<Labelled> cells) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, String> first = settings(cells.get(0));
        for (Labelled l : cells) {
            settings(l).forEach((k, v) -> {
                if (!v.equals(first.get(k))) {
                    out.add(k);
                }
            });
        }
        return out;
    }

    /** "ort, batch 4", "djl-ort, prompt 64": the settings that tell the model's lines apart; the engine if none. */
    private static String label(Labelled l, Set<String> varying, boolean multiRun) {
        Map<String, String> params = settings(l);
        List<String> keys = new ArrayList<>(ORDER);
        params.keySet().stream().filter(k -> !ORDER.contains(k)).forEach(keys::add);
        List<String> parts = new ArrayList<>();
        if (multiRun) {
            parts.add(l.run());
        }
        for (String k : keys) {
            if (varying.contains(k) && params.containsKey(k)) {
                String v = params.get(k);
                parts.add(switch (k) {
                    case CellSpec.ENGINE -> v;
                    case CellSpec.BATCH_SIZE -> "batch " + v;
                    case GenerationSpec.PROMPT_LEN -> "prompt " + v;
                    case GenerationSpec.OUTPUT_LEN -> "output " + v;
                    default -> k + "=" + v;
                });
            }
        }
        return parts.isEmpty() ? params.getOrDefault(CellSpec.ENGINE, "?") : String.join(", ", parts);
    }
}
