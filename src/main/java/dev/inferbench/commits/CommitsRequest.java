package dev.inferbench.commits;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code compare-commits} as its command line asked for it, every flag parsed.
 *
 * @param base        the base side as given: a commit, {@code .} (this checkout as built) or a built checkout's folder
 * @param head        the head side, given the same ways
 * @param jmhArgs     the cell and JMH arguments both sides run with
 * @param precision   stop when every gated row has the pairs its pilot asks for at this precision (a fraction); NaN
 *                    for a fixed number of pairs
 * @param budgetSeconds stop before a pair that would end past this many seconds; 0 for no budget
 * @param budget      the budget as given, for the lines that name it
 * @param forks       forks per side (the most with a precision)
 * @param forksFrom   where {@code forks} came from, for the closing line
 * @param minEffect   compare's {@code --min-effect}, a fraction
 * @param failOnRegression whether a regression fails (exit 1) and a row that could not tell exits 3
 * @param out         where the two run folders go; null for results/compare-BASE-HEAD-TIME
 * @param headArgs    extra JMH arguments for the head side only
 * @param pin         a CPU list every fork of both sides runs on; null for none
 * @param duet        both sides' forks of a pair at once, each on half the CPUs
 * @param turns       both sides' forks of a pair at once, taking turns iteration by iteration
 * @param seed        the seed of the pair-order coin
 * @param offline     build with mvn -o
 * @param where       operator passes before pairs
 * @param whereEvery  an operator pass before every K-th pair; 0 to choose K from the first pair
 * @param baseBuild   extra Maven arguments for building the base side
 * @param headBuild   extra Maven arguments for building the head side
 * @param gate        the metrics compare's gate covers, and so the stop rule reads
 * @param keepBusy    a CPU list kept busy by a spinning process for the whole comparison; null for none
 */
public record CommitsRequest(String base, String head, List<String> jmhArgs, double precision, long budgetSeconds,
                             String budget, int forks, String forksFrom, double minEffect, boolean failOnRegression,
                             Path out, List<String> headArgs, String pin, boolean duet, boolean turns, long seed,
                             boolean offline, boolean where, int whereEvery, List<String> baseBuild,
                             List<String> headBuild, Set<String> gate, String keepBusy) {
    public CommitsRequest {
        jmhArgs = List.copyOf(jmhArgs);
        headArgs = List.copyOf(headArgs);
        baseBuild = List.copyOf(baseBuild);
        headBuild = List.copyOf(headBuild);
        gate = java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(gate));
    }

    boolean paired() {
        return duet || turns;
    }
}
