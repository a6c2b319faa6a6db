package dev.inferbench.run;

import dev.inferbench.Json;
import java.util.Collections;
import dev.inferbench.cell.Cell;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.inferbench.BenchException;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run measures, fixed when it starts and kept as {@code plan.json} in its folder, so that a resumed run, or
 * another shard of it, measures exactly the same: every cell of the whole matrix (a shard's folder holds the whole
 * plan and runs its slice), the forks each cell gets, the JMH settings that shape a fork, and the cells skipped
 * before any fork started.
 *
 * @param id       a digest of the cells and the settings, the same for every shard of one run and for a resumed run
 * @param args     the user's JMH arguments, inferbench's own flags removed; parsed again on resume
 * @param config   the benchmarks.properties the run read; null for the copy inside the jar
 * @param settings iteration counts and times, explicit so that a changed benchmarks.properties cannot alter a
 *                 resumed run
 * @param keepDisturbed {@code --keep-disturbed}: every fork stays in the figures, also those run while the machine
 *                 was disturbed, and none is re-run (results.Headline reads it from plan.json by this name)
 * @param tail     {@code --tail}: every fork records its slow calls and what the JVM did during them, resumed forks
 *                 too (a plan written before it was kept reads false)
 */
public record Plan(int format, String id, List<String> args, String config, int forks, Settings settings,
                   String shard, List<Cell> cells, List<Skipped> skipped, boolean keepDisturbed, boolean tail) {

    public static final int FORMAT = 1;
    private static final ObjectMapper JSON = Json.mapper(Json.Option.PRETTY, Json.Option.LENIENT);

    /**
     * JMH's per-fork settings that the command line or benchmarks.properties gave, as JMH's own option syntax
     * ({@code 2 s}) so they can be handed back verbatim; null where neither did (the benchmark's annotations or
     * JMH's defaults apply).
     */
    public record Settings(Integer warmupIterations, String warmupTime, Integer iterations, String time) {
    }

    /** A cell that cannot run here, and why (prepare.SkipRule says why). */
    public record Skipped(Cell cell, String reason) {
    }

    public Plan {
        // copies that tolerate nulls: a damaged plan.json is refused by fromJson with a clear message, not here
        args = args == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(args));
        cells = cells == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(cells));
        skipped = skipped == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(skipped));
    }

    public static Plan of(List<String> args, String config, int forks, Settings settings, Shard shard,
                          List<Cell> cells, List<Skipped> skipped) {
        String id = Cell.digest(String.join("\u0000", args) + "|" + settings + "|" + cells).substring(0, 16);
        return new Plan(FORMAT, id, args, config, forks, settings, shard.toString(), cells, skipped, false, false);
    }

    private static boolean complete(Cell c) {
        return c != null && c.benchmark() != null && c.mode() != null && !c.params().containsValue(null);
    }

    public Shard shardSlice() throws BenchException {
        return Shard.parse(shard);
    }

    /** The cells this folder runs: its shard's slice, skipped cells left out. */
    public List<Cell> runnableCells() throws BenchException {
        List<Cell> skippedCells = skipped.stream().map(Skipped::cell).toList();
        List<Cell> mine = new ArrayList<>(shardSlice().select(cells));
        mine.removeAll(skippedCells);
        return mine;
    }

    public Plan withForks(int newForks) {
        return new Plan(format, id, args, config, newForks, settings, shard, cells, skipped, keepDisturbed, tail);
    }

    /** The same plan keeping every fork in the figures ({@code --keep-disturbed}). */
    public Plan keepingDisturbed() {
        return new Plan(format, id, args, config, forks, settings, shard, cells, skipped, true, tail);
    }

    /** The same plan with every fork recording its slow calls ({@code --tail}). */
    public Plan tailing() {
        return new Plan(format, id, args, config, forks, settings, shard, cells, skipped, keepDisturbed, true);
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a plan is plain data and always serializes", e);
        }
    }

    public static Plan fromJson(String text, String source) throws BenchException {
        try {
            Plan p = JSON.readValue(text, Plan.class);
            if (p == null || p.format != FORMAT || p.settings == null || p.forks < 1 || p.shard == null
                    || p.args.contains(null) || !p.cells.stream().allMatch(Plan::complete)
                    || !p.skipped.stream().allMatch(s -> s != null && complete(s.cell()) && s.reason() != null)) {
                throw new BenchException(source + " is not a complete plan of format " + FORMAT
                        + " (the format this version of inferbench resumes)");
            }
            return p;
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            throw new BenchException(source + " is not a valid plan.json (" + OneLine.of(e) + ")", e);
        }
    }
}
