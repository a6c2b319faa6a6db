package dev.inferbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.inferbench.Json;
import dev.inferbench.results.jmh.MeasuredCell;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The cells every figure of a run is read from: each cell's forks run while the machine was quiet. A fork the machine
 * record marks disturbed ({@link MachineState#disturbedForks}: its canary, other processes' CPU; never the fork's
 * own latency) is left out of the cell's figure, unless every fork of the cell is marked (then all stay, and the line
 * says so) or the run keeps every fork ({@code --keep-disturbed}). The forks left out stay in the run folder and in
 * {@link RunLayout#RESULT}; {@link #line()} names them.
 *
 * @param cells    the cells as the summary, the reports, the exports, the history and the gate read them
 * @param notes    per cell whose figure left forks out, or could not: what it says ("mlp-tiny: 3 of 4 forks quiet")
 * @param leftOut  forks left out of the figures, all cells together
 * @param spares   forks run beyond the planned count in place of disturbed ones (0 when not known)
 * @param kept     whether the run keeps every fork in the figure
 */
public record Headline(List<MeasuredCell> cells, List<String> notes, int leftOut, int spares, boolean kept) {

    /** The key of {@link RunLayout#PLAN} that says the run keeps every fork in its figures. */
    public static final String KEEP_KEY = "keepDisturbed";

    /**
     * The headline of {@code all} (every landed fork of every cell, as the result file holds them).
     *
     * @param keepDisturbed every fork stays in the figure
     * @param plannedForks  the forks the plan gives each cell, so that forks past it count as spares; 0 if not known
     */
    public static Headline of(List<MeasuredCell> all, boolean keepDisturbed, int plannedForks) {
        int spares = 0;
        if (plannedForks > 0) {
            for (MeasuredCell c : all) {
                spares += Math.max(0, c.forks() - plannedForks);
            }
        }
        Optional<MachineState> machine = MachineState.of(all);
        if (keepDisturbed || machine.isEmpty()) {
            return new Headline(List.copyOf(all), List.of(), 0, spares, keepDisturbed);
        }
        List<MeasuredCell> cells = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int leftOut = 0;
        for (MeasuredCell c : all) {
            boolean[] disturbed = MachineState.disturbedForks(c, machine.get().canaryMedian(),
                    machine.get().othersMedian());
            int flagged = 0;
            for (boolean d : disturbed) {
                flagged += d ? 1 : 0;
            }
            if (flagged == 0) {
                cells.add(c);
            } else if (flagged == disturbed.length) {
                cells.add(c);
                notes.add(MachineState.label(c, all) + ": all " + flagged + " forks disturbed, all kept");
            } else {
                boolean[] quiet = new boolean[disturbed.length];
                for (int f = 0; f < quiet.length; f++) {
                    quiet[f] = !disturbed[f];
                }
                cells.add(c.onlyForks(quiet));
                leftOut += flagged;
                notes.add(MachineState.label(c, all) + ": " + (disturbed.length - flagged) + " of "
                        + disturbed.length + " forks quiet");
            }
        }
        return new Headline(List.copyOf(cells), List.copyOf(notes), leftOut, spares, false);
    }

    /**
     * The headline of a run folder's cells by the folder's own plan: whether it keeps every fork and its planned
     * forks (a folder without a readable plan, or a bare JMH file: the default rule, spares not known).
     */
    public static Headline ofFolder(Path runOrFile, List<MeasuredCell> all) {
        Path plan = (Files.isDirectory(runOrFile) ? runOrFile : runOrFile.toAbsolutePath().getParent())
                .resolve(RunLayout.PLAN);
        boolean keep = false;
        int forks = 0;
        if (Files.isRegularFile(plan, LinkOption.NOFOLLOW_LINKS)) {
            try {
                JsonNode n = Json.mapper().readTree(plan.toFile());
                keep = n.path(KEEP_KEY).asBoolean(false);
                forks = n.path("forks").asInt(0);
            } catch (IOException e) {
                // a damaged plan: the default rule, as for a bare file (resume refuses such a plan in its own words)
            }
        }
        return of(all, keep, forks);
    }

    /**
     * One line for the summary and the reports: how many forks were re-run and left out, and why; empty when none
     * was and the run did not keep every fork by choice.
     */
    public Optional<String> line() {
        if (kept) {
            return Optional.of("headline: every fork in the figures (--keep-disturbed), disturbed ones too");
        }
        if (leftOut == 0 && spares == 0 && notes.isEmpty()) {
            return Optional.empty();
        }
        String head = "headline: " + spares + " fork" + (spares == 1 ? "" : "s") + " re-run, " + leftOut + " left out"
                + " of the figures (run while the machine was disturbed; kept in " + RunLayout.RESULT + ")";
        return Optional.of(notes.isEmpty() ? head : head + ": " + String.join("; ", notes));
    }
}
