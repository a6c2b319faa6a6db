package dev.inferbench.pipeline;

import java.util.Arrays;
import dev.inferbench.tensor.HostTensor;
import org.junit.jupiter.api.Test;

import java.nio.LongBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TextPipelineTest {

    @Test
    void tokensAreClsWordsSepWithinTheVocabulary() {
        TextPipeline p = new TextPipeline(16, 30522);
        long[] ids = p.tokenize("The model, runs FAST.");
        assertThat(ids).hasSize(6);
        assertThat(ids[0]).isEqualTo(TextPipeline.CLS);
        assertThat(ids[5]).isEqualTo(TextPipeline.SEP);
        for (int i = 1; i < 5; i++) {
            assertThat(ids[i]).isBetween((long) TextPipeline.FIRST_WORD, 30521L);
        }
        assertThat(ids[1]).isEqualTo(p.tokenize("the")[1]); // case folded, the same word the same id
        assertThat(p.tokenize("The model, runs FAST.")).containsExactly(ids);
    }

    @Test
    void longTextIsCutAndShortTextPaddedWithTheMaskSaying() {
        TextPipeline p = new TextPipeline(8, 30522);
        assertThat(p.tokenize(TextPipeline.sampleText(1, 50))).hasSize(8).endsWith(TextPipeline.SEP);
        List<HostTensor> batch = p.preprocess("two words", 3, "input_ids", "attention_mask");
        assertThat(batch).extracting(HostTensor::name).containsExactly("input_ids", "attention_mask");
        assertThat(batch.get(0).shape()).containsExactly(3, 8);
        LongBuffer mask = (LongBuffer) batch.get(1).data();
        LongBuffer ids = (LongBuffer) batch.get(0).data();
        assertThat(mask.remaining()).isEqualTo(24);
        long ones = 0;
        for (int i = 0; i < 24; i++) {
            ones += mask.get(i);
            assertThat(ids.get(i) == TextPipeline.PAD).isEqualTo(mask.get(i) == 0);
        }
        assertThat(ones).isEqualTo(3 * 4); // [CLS] two words [SEP] in each of 3 rows
    }

    @Test
    void aSmallVocabularyKeepsEveryIdInside() {
        long[] ids = new TextPipeline(32, 100).tokenize(TextPipeline.sampleText(7, 20));
        assertThat(Arrays.stream(ids).min().orElseThrow()).isNotNegative();
        assertThat(Arrays.stream(ids).max().orElseThrow()).isLessThan(100L);
    }
}
