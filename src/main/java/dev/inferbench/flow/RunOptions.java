package dev.inferbench.flow;

import dev.inferbench.profile.FlameSettings;
import dev.inferbench.run.LoopSettings;
import dev.inferbench.run.Shard;

import java.nio.file.Path;
import java.util.List;

/**
 * inferbench's own flags of a benchmark run, parsed (the JMH options are apart, in {@link RunRequest#args}).
 *
 * @param resume        {@code --resume DIR}, or null for a new run
 * @param trustFolder   {@code --trust-folder}: the resumed folder is the user's own, and may ask for anything
 * @param runDir        {@code --run-dir DIR}, or null for a new folder under the results root
 * @param shard         {@code --shard i/n}, else the whole plan
 * @param cells         {@code --cells FILE}, or null
 * @param loop          {@code --max-forks}, {@code --fork-timeout}, {@code --precision}, {@code --budget}, {@code --paced}
 * @param flame         {@code --flame} with its events, or null
 * @param flameOptional {@code --flame-optional}: a run without async-profiler goes on without flame graphs
 * @param opProfile     {@code --op-profile} (also implied by {@code --flame})
 * @param thresholds    the {@code --threshold} checks of the gate after the run, as given
 * @param percentiles   the percentiles of the calls the summary and the report show ({@code --percentiles}, else
 *                      the default)
 * @param keepDisturbed {@code --keep-disturbed}: every fork in the figures, none re-run (kept in plan.json)
 * @param tail          {@code --tail}: every fork records its slow calls and what the JVM did during them
 */
public record RunOptions(Path resume, boolean trustFolder, Path runDir, Shard shard, Path cells, LoopSettings loop, FlameSettings flame,
                         boolean flameOptional, boolean opProfile, List<String> thresholds, double[] percentiles,
                         boolean keepDisturbed, boolean tail) {
    public RunOptions(Path resume, boolean trustFolder, Path runDir, Shard shard, Path cells, LoopSettings loop,
                      FlameSettings flame, boolean flameOptional, boolean opProfile, List<String> thresholds,
                      double[] percentiles, boolean keepDisturbed) {
        this(resume, trustFolder, runDir, shard, cells, loop, flame, flameOptional, opProfile, thresholds, percentiles,
                keepDisturbed, false);
    }

    public RunOptions(Path resume, boolean trustFolder, Path runDir, Shard shard, Path cells, LoopSettings loop,
                      FlameSettings flame, boolean flameOptional, boolean opProfile, List<String> thresholds,
                      double[] percentiles) {
        this(resume, trustFolder, runDir, shard, cells, loop, flame, flameOptional, opProfile, thresholds, percentiles,
                false);
    }
}
