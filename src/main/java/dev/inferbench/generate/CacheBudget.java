package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.Numbers;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.serve.Admission;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * A KV-cache budget for generation under load ({@code kvBudgetMiB}): the bytes the batches under way may hold in their
 * caches together, every caller's batches counted, as a server's cache memory caps the sequences it runs at once. A
 * batch holds, per sequence, the cache's bytes per token ({@link DecoderLayout#cacheBytesPerToken}) times the longest
 * prompt of the batch (the others are left-padded to it) plus the longest output, reserved when the batch starts as a
 * server that reserves a request's whole output does. A request that would take the batches over the budget waits in
 * the queue; the wait counts in its TTFT.
 *
 * @param mib     the budget in MiB
 * @param lengths the cell's request lengths, to refuse a budget that cannot hold even the largest request
 */
public record CacheBudget(double mib, RequestLengths lengths) implements FitsContext {
    public static final String PARAM = "kvBudgetMiB";
    /** {@code kvBudgetMiB=off}: no budget but the batch size. */
    public static final String OFF = "off";

    /** The cell's budget, or null when it is off (the default, and when the benchmark has no such parameter). */
    public static CacheBudget of(Map<String, String> params, RequestLengths lengths) throws BenchException {
        String text = params.getOrDefault(PARAM, OFF).strip();
        if (text.equalsIgnoreCase(OFF)) {
            return null;
        }
        double mib = Numbers.orNaN(text);
        if (!(mib > 0) || mib > 1 << 30) {
            throw new BenchException(PARAM + " '" + text + "' is not off or a size in MiB above 0; expected e.g. -p "
                    + PARAM + "=off,64,256 (the bytes the batches' caches may hold together)");
        }
        return new CacheBudget(mib, lengths);
    }

    public long bytes() {
        return (long) Math.floor(mib * 1024 * 1024);
    }

    /** The budget must hold the largest request the cell can draw, alone. */
    @Override
    public void check(DecoderLayout layout, String model, Path file) throws BenchException {
        check(layout, model, lengths.encode(file, layout));
    }

    /** As {@link #check(DecoderLayout, String, Path)}, with the prompt file already encoded (or null without one). */
    public void check(DecoderLayout layout, String model, Prompts encoded) throws BenchException {
        long perToken = layout.cacheBytesPerToken();
        int longest = lengths.longest(encoded);
        if (perToken * longest > bytes()) {
            String least = BigDecimal.valueOf(perToken * (double) longest / (1024 * 1024))
                    .round(new MathContext(4, RoundingMode.UP)).stripTrailingZeros().toPlainString();
            throw new BenchException(String.format(Locale.ROOT, "%s=%s holds %d tokens of the cache of model '%s' (%d B"
                    + " per token), and a request may need %d (%s); expected %s >= %s or off", PARAM, Numbers.plain(mib),
                    bytes() / perToken, model, perToken, longest, lengths, PARAM, least));
        }
    }

    /**
     * What the batches may hold together, in bytes: each batch of requests {@code ids} the cache's bytes per token
     * times the tokens {@code batcher} says the batch holds.
     */
    public Admission admission(DecoderLayout layout, StaticBatcher batcher) {
        long perToken = layout.cacheBytesPerToken();
        return new Admission(bytes(), ids -> perToken * batcher.cacheTokens(ids));
    }
}
