package dev.inferbench.flow;

import dev.inferbench.prepare.JmhArgs;
import dev.inferbench.profile.FlameSettings;
import dev.inferbench.run.LoopSettings;
import dev.inferbench.run.Shard;

import java.nio.file.Path;
import java.util.List;

/**
 * A benchmark run as the command line asked for it, every flag parsed: what {@link RunFlow} takes.
 *
 * @param argv       the command line as typed, for run.properties
 * @param args       the JMH options, read once; of a resumed run, only its {@code -f N}
 * @param resume     {@code --resume DIR}, or null for a new run
 * @param runDir     {@code --run-dir DIR}, or null for a new folder under the results root
 * @param cells      {@code --cells FILE}, or null
 * @param flame      {@code --flame} with its events, or null
 * @param opProfile  {@code --op-profile} (also implied by {@code --flame})
 * @param thresholds the {@code --threshold} checks of the gate after the run, as given
 * @param percentiles the percentiles of the calls the summary shows ({@code --percentiles}, else the default)
 */
public record RunRequest(List<String> argv, JmhArgs.Parsed args, Path resume, Path runDir, Shard shard, Path cells,
                         LoopSettings loop, FlameSettings flame, boolean flameOptional, boolean opProfile,
                         List<String> thresholds, double[] percentiles, boolean verbose) {
}
