package dev.inferbench.report;

import dev.inferbench.cell.CellSpec;
import dev.inferbench.generate.GenerationFigures;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.results.CellSummary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.inferbench.report.TableSection.fig;

/**
 * The generation cells of a run (GenerationBenchmark), in a section of their own in every output: per cell, time to
 * first token and time per output token with their 95 % intervals over the forks, the inter-token latency
 * percentiles (n/a where too few gaps lie behind them), the request's end-to-end time, output and total tokens/s,
 * the KV cache per token and the prefill's share of the request.
 */
public final class GenerationTable {
    private static final List<String> FIRST = List.of(CellSpec.MODEL, CellSpec.ENGINE, CellSpec.BATCH_SIZE,
            GenerationSpec.PROMPT_LEN, GenerationSpec.OUTPUT_LEN);
    static final String TITLE = "Generation";
    static final String HEADING = "generation (one request per call: the prompt's prefill, then one token a step with"
            + " the KV cache; means over requests, ± the 95 % interval with forks as the unit)";
    static final String NOTE = "TTFT: start to first token (the prefill's); TPOT: (end-to-end - TTFT) / (output"
            + " tokens - 1); TTFT and TPOT p99: over an iteration's requests, n/a below 1,000 requests (p50 and p90,"
            + " from 20 and 100, are in the report); ITL: gaps between tokens, pooled per iteration, n/a below"
            + " 20/100/1,000 gaps for p50/p90/p99; tokens/s: batch x tokens over request time";

    private GenerationTable() {
    }

    public static boolean isGeneration(CellSummary c) {
        return c.extras().containsKey(GenerationFigures.TTFT);
    }

    /** As the terminal summary prints it; empty when the run has no generation cell. */
    static String render(List<CellSummary> all) {
        return table(all).render();
    }

    static TableSection table(List<CellSummary> all) {
        List<CellSummary> cells = all.stream().filter(GenerationTable::isGeneration)
                .sorted(Comparator.comparing((CellSummary c) -> c.benchmark())
                        .thenComparing(c -> c.params().getOrDefault(CellSpec.MODEL, ""))
                        .thenComparing(c -> c.params().getOrDefault(CellSpec.ENGINE, ""))
                        .thenComparingInt(c -> number(c, CellSpec.BATCH_SIZE))
                        .thenComparingInt(c -> number(c, GenerationSpec.PROMPT_LEN))
                        .thenComparingInt(c -> number(c, GenerationSpec.OUTPUT_LEN)))
                .toList();
        if (cells.isEmpty()) {
            return TableSection.empty(TITLE);
        }
        Set<String> present = new LinkedHashSet<>();
        cells.forEach(c -> present.addAll(ConstantParams.shown(c.params()).keySet()));
        // FIRST's order, but only those some cell has: a prompt file's cells have no promptLen
        Set<String> keys = new LinkedHashSet<>(FIRST.stream().filter(present::contains).toList());
        keys.addAll(present);
        Map<String, String> constant = ConstantParams.split(cells.stream().map(c -> ConstantParams.shown(c.params()))
                .toList(), keys, Set.copyOf(FIRST));
        List<String> head = new ArrayList<>();
        keys.forEach(k -> head.add(k.equals(CellSpec.BATCH_SIZE) ? "batch" : k));
        head.addAll(List.of("TTFT ms", "TTFT p99", "TPOT ms", "TPOT p99", "ITL p50", "p90", "p99", "e2e ms", "out tok/s",
                "total tok/s",
                "KV KiB/token", "prefill %", "forks"));
        List<List<String>> rows = new ArrayList<>();
        rows.add(head);
        for (CellSummary c : cells) {
            List<String> row = new ArrayList<>();
            Map<String, String> shown = ConstantParams.shown(c.params());
            keys.forEach(k -> row.add(shown.getOrDefault(k, "")));
            row.add(withInterval(c, GenerationFigures.TTFT));
            row.add(SummaryTable.num(fig(c, GenerationFigures.percentile(GenerationFigures.TTFT, 99))));
            row.add(withInterval(c, GenerationFigures.TPOT));
            row.add(SummaryTable.num(fig(c, GenerationFigures.percentile(GenerationFigures.TPOT, 99))));
            for (double p : GenerationFigures.ITL_PERCENTILES) {
                row.add(SummaryTable.num(fig(c, GenerationFigures.itl(p))));
            }
            row.add(SummaryTable.num(fig(c, GenerationFigures.E2E)));
            row.add(SummaryTable.num(fig(c, GenerationFigures.OUTPUT_TOKENS)));
            row.add(SummaryTable.num(fig(c, GenerationFigures.TOTAL_TOKENS)));
            row.add(SummaryTable.num(fig(c, GenerationFigures.KV_BYTES) / 1024));
            row.add(SummaryTable.num(fig(c, GenerationFigures.PREFILL_SHARE)));
            row.add(Integer.toString(c.mean().forks()));
            rows.add(row);
        }
        List<String> lines = new ArrayList<>(List.of(NOTE));
        lines.addAll(GenerationPlots.absent(cells));
        return new TableSection(TITLE, HEADING, rows, "[-0-9.,±n/a ]+",
                ConstantParams.line("every generation cell", constant), lines, "note");
    }

    private static String withInterval(CellSummary c, String metric) {
        double hw = fig(c, CellSummary.halfWidth(metric));
        return SummaryTable.num(fig(c, metric)) + " ± " + (Double.isNaN(hw) ? "n/a" : SummaryTable.num(hw));
    }

    private static int number(CellSummary c, String param) {
        try {
            return Integer.parseInt(c.params().getOrDefault(param, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
