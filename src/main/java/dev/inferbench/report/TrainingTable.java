package dev.inferbench.report;

import dev.inferbench.cell.BenchmarkNames;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.metrics.TrainingProfiler;
import dev.inferbench.results.CellSummary;
import org.knowm.xchart.CategoryChart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.inferbench.report.TableSection.fig;

/**
 * The training cells of a run (TrainingBenchmark), in a section of their own, the 004 seed's MEMORY report: per
 * cell, the memory of inference and of a training step at the same batch, split into the forward pass with gradients,
 * the backward pass and the gradients, as libtorch counted them, and the step's time beside inference's where the run
 * also measured the inference cell of the same model, engine, device, batch, seqLen and threads (fp32, one caller).
 * One plot, "inference vs training": a group of bars per cell.
 */
public final class TrainingTable {
    private static final List<String> FIRST = List.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE);
    /** The params an inference cell must share with a training cell to stand beside it. */
    private static final List<String> SAME = List.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.DEVICE,
            CellSpec.BATCH_SIZE, CellSpec.SEQ_LEN, CellSpec.THREADS);
    static final String TITLE = "Training vs inference";
    static final String HEADING = "training vs inference (djl-pytorch; memory of each fork's first step as libtorch's"
            + " allocator counted it, MiB, above the weights and the batch; times are means per call)";
    static final String NOTE = "inference: one forward pass without gradients; forward: with gradients recorded (DJL"
            + " keeps every intermediate of a call until it ends, so both hold all of them); backward: its peak above"
            + " what the forward left, the gradients included; step: forward + backward";

    private TrainingTable() {
    }

    public static boolean isTraining(CellSummary c) {
        return c.extras().containsKey(TrainingProfiler.STEP);
    }

    /** As the terminal summary prints it; empty when the run has no training cell. */
    static String render(List<CellSummary> all) {
        return table(all).render();
    }

    /** The training cells' section for every output: the table, the params they share, the notes under it. */
    static TableSection table(List<CellSummary> all) {
        List<CellSummary> cells = training(all);
        if (cells.isEmpty()) {
            return TableSection.empty(TITLE);
        }
        Set<String> keys = new LinkedHashSet<>(FIRST);
        cells.forEach(c -> keys.addAll(c.params().keySet()));
        if (!SummaryTable.sequenceModels(cells)) {
            keys.remove(CellSpec.SEQ_LEN); // no model here takes a sequence length
        }
        Map<String, String> constant = ConstantParams.split(cells.stream().map(CellSummary::params).toList(), keys,
                Set.copyOf(FIRST));
        List<String> head = new ArrayList<>();
        keys.forEach(k -> head.add(k.equals(CellSpec.BATCH_SIZE) ? "batch" : k));
        head.addAll(List.of("inference MiB", "forward MiB", "backward MiB", "gradients MiB", "step MiB",
                "step/inference mem", "step ms", "inference ms", "step/inference time", "forks"));
        List<List<String>> rows = new ArrayList<>();
        rows.add(head);
        boolean unmatched = false;
        for (CellSummary c : cells) {
            List<String> row = new ArrayList<>();
            keys.forEach(k -> row.add(c.params().getOrDefault(k, "")));
            double inference = fig(c, TrainingProfiler.INFERENCE);
            double step = fig(c, TrainingProfiler.STEP);
            row.add(SummaryTable.num(inference));
            row.add(SummaryTable.num(fig(c, TrainingProfiler.FORWARD)));
            row.add(SummaryTable.num(fig(c, TrainingProfiler.BACKWARD)));
            row.add(SummaryTable.num(fig(c, TrainingProfiler.GRADIENTS)));
            row.add(SummaryTable.num(step));
            row.add(ratio(step, inference));
            double stepMs = Units.convert(c.mean().estimate(), c.unit(), "ms/op");
            row.add(SummaryTable.num(stepMs));
            Optional<CellSummary> infer = inferenceOf(c, all);
            unmatched |= infer.isEmpty();
            double inferMs = infer.map(i -> Units.convert(i.mean().estimate(), i.unit(), "ms/op")).orElse(Double.NaN);
            row.add(SummaryTable.num(inferMs));
            row.add(ratio(stepMs, inferMs));
            row.add(Integer.toString(c.mean().forks()));
            rows.add(row);
        }
        List<String> lines = new ArrayList<>(List.of(NOTE));
        if (unmatched) {
            lines.add("inference ms: n/a where the run has no inference cell of the same setting; run both benchmarks:"
                    + " java -jar benchmarks.jar 'Inference|Training' -p engine=djl-pytorch ...");
        }
        return new TableSection(TITLE, HEADING, rows, "[-0-9.,×n/a]+", ConstantParams.line("every training cell", constant),
                lines, "note");
    }

    /** The "inference vs training" plot: per cell, inference, the training step, and of it the gradients (MiB). */
    static List<Plots.Plot> plots(List<CellSummary> all) {
        List<CellSummary> cells = training(all);
        if (cells.isEmpty()) {
            return List.of();
        }
        String title = "inference vs training: memory per cell (libtorch, MiB)";
        CategoryChart chart = Plots.categories(title, "", "MiB");
        boolean models = cells.stream().map(c -> c.params().get(CellSpec.MODEL)).distinct().count() > 1;
        List<String> labels = new ArrayList<>();
        for (CellSummary c : cells) {
            labels.add(Plots.unique(labels, (models ? c.params().get(CellSpec.MODEL) + " " : "") + "b"
                    + c.params().get(CellSpec.BATCH_SIZE)));
        }
        chart.addSeries("inference", labels, cells.stream().map(c -> fig(c, TrainingProfiler.INFERENCE)).toList());
        chart.addSeries("training step (forward + backward)", labels,
                cells.stream().map(c -> fig(c, TrainingProfiler.STEP)).toList());
        chart.addSeries("gradients", labels, cells.stream().map(c -> fig(c, TrainingProfiler.GRADIENTS)).toList());
        chart.getStyler().setXAxisLabelRotation(labels.size() > 6 ? 45 : 0);
        PlotAxes.zeroBasedY(chart);
        return List.of(new Plots.Plot("inference-vs-training", title, Plots.styled(chart)));
    }

    private static List<CellSummary> training(List<CellSummary> all) {
        return all.stream().filter(TrainingTable::isTraining)
                .sorted(Comparator.comparing((CellSummary c) -> c.params().getOrDefault(CellSpec.MODEL, ""))
                        .thenComparingInt(c -> Integer.parseInt(c.params().getOrDefault(CellSpec.BATCH_SIZE, "1"))))
                .toList();
    }

    /** The run's inference cell of the same setting, fp32 and one caller, if it has one. */
    private static Optional<CellSummary> inferenceOf(CellSummary training, List<CellSummary> all) {
        return all.stream().filter(c -> !isTraining(c) && BenchmarkNames.inClass(c.benchmark(), BenchmarkNames.INFERENCE))
                .filter(c -> SAME.stream().allMatch(k -> training.params().getOrDefault(k, "")
                        .equals(c.params().getOrDefault(k, ""))))
                .filter(c -> c.params().getOrDefault(CellSpec.PRECISION, "fp32").equals("fp32")
                        && c.params().getOrDefault(CellSpec.CALLERS, "1").equals("1"))
                .findFirst();
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b <= 0 ? "n/a" : String.format(Locale.ROOT, "%.2f×", a / b);
    }
}
