package dev.inferbench.run;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;

import java.util.Map;
import java.util.Optional;

/**
 * Decides, before any fork starts, that one cell of the matrix cannot run on this machine or build (a device that
 * is absent, a batch size the model file fixes otherwise). A skipped cell is printed with its reason, listed as
 * skipped in the run folder and the summary, and is not a failure. Bad input (an unknown name) is not a skip: it
 * throws {@link BenchException}.
 */
public interface SkipRule {

    /**
     * @param params the cell's benchmark parameters, e.g. {@code model=resnet50, batchSize=8, device=cuda}
     * @return why the cell cannot run here, in one line; empty when it can
     */
    Optional<String> skipReason(Map<String, String> params, BenchConfig config) throws BenchException;
}
