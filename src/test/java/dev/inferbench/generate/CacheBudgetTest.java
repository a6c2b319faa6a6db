package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.serve.ServingSpec;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The KV-cache budget's value and its check before the run: off by default, a size in MiB, refused when even the
 * largest request the cell can draw does not fit alone (llama-tiny's cache: 512 B a token). Also the closed loop's
 * parameter, whose one refusal (a rate search) the generation cells meet.
 */
class CacheBudgetTest {
    private static final DecoderLayout LLAMA_TINY = new DecoderLayout(2, 2, 16, 512, true, OptionalInt.of(256));

    @Test
    void offIsNoBudget() throws BenchException {
        RequestLengths lengths = RequestLengths.of(Map.of());
        assertThat(CacheBudget.of(Map.of(), lengths)).isNull();
        assertThat(CacheBudget.of(Map.of("kvBudgetMiB", "OFF"), lengths)).isNull();
        assertThat(CacheBudget.of(Map.of("kvBudgetMiB", "0.5"), lengths).bytes()).isEqualTo(512 * 1024);
    }

    @Test
    void aBudgetThatHoldsTheLargestRequestPassesAndOneTokenLessIsRefused() throws BenchException {
        // uniform prompts up to 20 and outputs up to 4: the largest request holds 24 tokens, 12,288 B
        RequestLengths lengths = RequestLengths.of(Map.of("promptLen", "uniform(8..20)", "outputLen", "4"));
        double fits = 24 * 512 / (1024.0 * 1024);
        CacheBudget.of(Map.of("kvBudgetMiB", Double.toString(fits)), lengths).check(LLAMA_TINY, "llama-tiny",
                (Prompts) null);
        double under = 23.5 * 512 / (1024.0 * 1024);
        assertThatThrownBy(() -> CacheBudget.of(Map.of("kvBudgetMiB", Double.toString(under)), lengths)
                .check(LLAMA_TINY, "llama-tiny", (Prompts) null))
                .isInstanceOf(BenchException.class)
                .hasMessageContaining("holds 23 tokens of the cache of model 'llama-tiny' (512 B per token), and a"
                        + " request may need 24 (promptLen=uniform(8..20) outputLen=4); expected kvBudgetMiB >= 0.01172"
                        + " or off");
    }

    @Test
    void aBudgetThatIsNoSizeIsRefused() throws BenchException {
        RequestLengths lengths = RequestLengths.of(Map.of());
        for (String bad : new String[]{"0", "-1", "64MiB", "NaN"}) {
            assertThatThrownBy(() -> CacheBudget.of(Map.of("kvBudgetMiB", bad), lengths))
                    .hasMessage("kvBudgetMiB '" + bad + "' is not off or a size in MiB above 0; expected e.g. -p"
                            + " kvBudgetMiB=off,64,256 (the bytes the batches' caches may hold together)");
        }
    }

    @Test
    void usersAreAClosedLoopAndDoNotGoWithARateSearch() throws BenchException {
        ServingSpec spec = ServingSpec.of(Map.of("rate", "1", "users", "4", "requests", "100"), true);
        assertThat(spec.closed()).isTrue();
        assertThat(spec.requestsAt(1)).isEqualTo(100);
        assertThat(spec.warmupRequests(1)).isEqualTo(10);
        assertThat(ServingSpec.of(Map.of("rate", "1", "users", "40", "requests", "100"), true).warmupRequests(1))
                .isEqualTo(40); // one each: every user's first request starts at once
        assertThat(ServingSpec.of(Map.of("rate", "1"), true).closed()).isFalse();
        assertThatThrownBy(() -> ServingSpec.of(Map.of("rate", "max", "slo", "ttft.p50<1s", "users", "4"), true))
                .hasMessageStartingWith("rate=max and users=4 do not go together");
        assertThatThrownBy(() -> ServingSpec.of(Map.of("rate", "1", "users", "-2"), true))
                .hasMessageStartingWith("users '-2' is not a whole number >= 0");
    }
}
