package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prompt and output lengths of requests under load: fixed, uniform (seeded, both ends), a file of pairs; bad input. */
class RequestLengthsTest {
    /** Lengths without a prompt file never read the model's folder. */
    private static final java.nio.file.Path NO_FILE = java.nio.file.Path.of("no-folder", "model.onnx");

    private static final DecoderLayout CONTEXT_256 = new DecoderLayout(2, 2, 16, 512, true, OptionalInt.of(256));

    @TempDir
    Path dir;

    @Test
    void fixedLengthsAreTheSameForEveryRequest() throws BenchException {
        RequestLengths.Drawn d = RequestLengths.of(Map.of("promptLen", "128", "outputLen", "64")).draw(5, 1, 512);
        assertThat(d.prompt()).containsOnly(128);
        assertThat(d.output()).containsOnly(64);
        assertThat(RequestLengths.of(Map.of())).hasToString("promptLen=128 outputLen=64");
    }

    @Test
    void uniformLengthsAreSeededAndReachBothEnds() throws BenchException {
        RequestLengths l = RequestLengths.of(Map.of("promptLen", "uniform(16..20)", "outputLen", "uniform(1..3)"));
        RequestLengths.Drawn a = l.draw(2000, 7, 512);
        assertThat(a.prompt()).containsOnly(16, 17, 18, 19, 20).contains(16, 20);
        assertThat(a.output()).containsOnly(1, 2, 3).contains(1, 3);
        assertThat(l.draw(2000, 7, 512).prompt()).containsExactly(a.prompt());
        assertThat(l.draw(2000, 8, 512).prompt()).isNotEqualTo(a.prompt());
        // each count about a fifth: a draw that favoured an end would show
        long ends = Arrays.stream(a.prompt()).filter(p -> p == 20).count();
        assertThat(ends).isBetween(300L, 500L);
        assertThat(l.longest()).isEqualTo(23);
    }

    @Test
    void aFileOfPairsIsTakenInOrderAndCycles() throws Exception {
        Path f = dir.resolve("trace.csv");
        Files.writeString(f, "prompt,output\n# from a chat log\n12,30\n\n200, 4\n7,7\n");
        RequestLengths l = RequestLengths.of(Map.of("lengths", f.toString(), "promptLen", "999"));
        RequestLengths.Drawn d = l.draw(5, 1, 512);
        assertThat(d.prompt()).containsExactly(12, 200, 7, 12, 200);
        assertThat(d.output()).containsExactly(30, 4, 7, 30, 4);
        assertThat(d.ids()[1]).hasSize(200);
        assertThat(l.longest()).isEqualTo(204);
        assertThat(l.toString()).endsWith("(3 pairs)");
        l.check(CONTEXT_256, "llama-tiny", NO_FILE);
    }

    @Test
    void aDistributionThatCannotBeReadIsRefused() {
        for (String bad : new String[]{"uniform(64..16)", "uniform(0..16)", "uniform(16,64)", "0", "long"}) {
            assertThatThrownBy(() -> RequestLengths.of(Map.of("promptLen", bad))).as(bad)
                    .isInstanceOf(BenchException.class)
                    .hasMessage("promptLen '" + bad + "' is not a length distribution; expected a whole number >= 1"
                            + " (128) or uniform(a..b) with 1 <= a <= b (uniform(32..128))");
        }
    }

    @Test
    void aLengthOverTheContextIsRefused() throws Exception {
        RequestLengths l = RequestLengths.of(Map.of("promptLen", "uniform(16..200)", "outputLen", "64"));
        assertThatThrownBy(() -> l.check(CONTEXT_256, "llama-tiny", NO_FILE)).isInstanceOf(BenchException.class)
                .hasMessage("promptLen uniform(16..200) + outputLen 64 reach 264 tokens, longer than the"
                        + " 256-token context of model 'llama-tiny'; expected the longest prompt + the longest output <= 256");
        RequestLengths.of(Map.of("promptLen", "uniform(16..192)", "outputLen", "64")).check(CONTEXT_256, "llama-tiny", NO_FILE);
        Path f = dir.resolve("long.csv");
        Files.writeString(f, "12,30\n250,10\n");
        assertThatThrownBy(() -> RequestLengths.of(Map.of("lengths", f.toString())).check(CONTEXT_256, "llama-tiny", NO_FILE))
                .hasMessage(f + " line 2: prompt 250 + output 10 = 260 tokens is longer than the 256-token"
                        + " context of model 'llama-tiny'; expected prompt + output <= 256");
        // a file that declares no context (a user's export) is not checked
        l.check(new DecoderLayout(2, 2, 16, 512, true, OptionalInt.empty()), "theirs.onnx", NO_FILE);
    }

    @Test
    void aMalformedMissingOrEmptyFileIsRefused() throws Exception {
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "128,64\n32;16\n");
        assertThatThrownBy(() -> RequestLengths.of(Map.of("lengths", bad.toString())))
                .hasMessage("lengths file " + bad + " line 2: '32;16' is not a prompt,output pair; expected one"
                        + " prompt,output pair of whole numbers >= 1 per line, e.g. 128,64");
        Files.writeString(bad, "128,64,1\n");
        assertThatThrownBy(() -> RequestLengths.of(Map.of("lengths", bad.toString()))).hasMessageContaining("line 1:");
        Files.writeString(bad, "128,0\n");
        assertThatThrownBy(() -> RequestLengths.of(Map.of("lengths", bad.toString()))).hasMessageContaining("line 1:");
        Files.writeString(bad, "# nothing\n");
        assertThatThrownBy(() -> RequestLengths.of(Map.of("lengths", bad.toString())))
                .hasMessageContaining("holds no pair");
        assertThatThrownBy(() -> RequestLengths.of(Map.of("lengths", dir.resolve("gone.csv").toString())))
                .hasMessageContaining("cannot be read (NoSuchFileException)");
    }
}
