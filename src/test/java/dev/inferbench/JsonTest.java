package dev.inferbench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {
    record Point(int x, int y) {
    }

    /** A stream that remembers whether anyone closed it. */
    static final class Watched extends ByteArrayOutputStream {
        boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void plainIsCompactAndStrictAboutUnknownFields() throws IOException {
        ObjectMapper m = Json.mapper();
        assertThat(m.writeValueAsString(Map.of("a", 1))).isEqualTo("{\"a\":1}");
        assertThatThrownBy(() -> m.readValue("{\"x\":1,\"y\":2,\"z\":3}", Point.class))
                .isInstanceOf(UnrecognizedPropertyException.class);
    }

    @Test
    void prettyIndentsAsJacksonsDefaultPrinter() throws IOException {
        assertThat(Json.mapper(Json.Option.PRETTY).writeValueAsString(Map.of("a", 1)))
                .isEqualTo(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(Map.of("a", 1)))
                .contains("\n");
    }

    @Test
    void lenientSkipsUnknownFields() throws IOException {
        assertThat(Json.mapper(Json.Option.LENIENT).readValue("{\"x\":1,\"y\":2,\"z\":3}", Point.class))
                .isEqualTo(new Point(1, 2));
    }

    @Test
    void wholeRefusesAMissingPrimitiveAndTrailingTokens() {
        ObjectMapper whole = Json.mapper(Json.Option.WHOLE);
        assertThatThrownBy(() -> whole.readValue("{\"x\":1}", Point.class)).isInstanceOf(MismatchedInputException.class);
        assertThatThrownBy(() -> whole.readValue("{\"x\":1,\"y\":2} {}", Point.class))
                .isInstanceOf(MismatchedInputException.class);
    }

    @Test
    void fastDoublesReadAndWriteTheSameNumbers() throws IOException {
        ObjectMapper fast = Json.mapper(Json.Option.FAST_DOUBLES);
        assertThat(fast.getFactory().isEnabled(com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER))
                .isTrue();
        assertThat(fast.readValue(fast.writeValueAsString(new double[]{0.1, 1e-300, 12.345678901234567}), double[].class))
                .containsExactly(0.1, 1e-300, 12.345678901234567);
    }

    @Test
    void neverClosesAStreamItIsGiven() throws IOException {
        for (Json.Option o : Json.Option.values()) {
            Watched out = new Watched();
            Json.mapper(o).writeValue(out, Map.of("a", 1));
            assertThat(out.closed).as(o.name()).isFalse();
            assertThat(out.toString()).as(o.name()).contains("\"a\"");
        }
        Watched plain = new Watched();
        Json.mapper().writeValue(plain, Map.of("a", 1));
        assertThat(plain.closed).isFalse();
    }

    @Test
    void nonFiniteNumbersAreNull() {
        ObjectNode n = Json.mapper().createObjectNode();
        Json.putNumber(n, "finite", 1.5);
        Json.putNumber(n, "nan", Double.NaN);
        Json.putNumber(n, "inf", Double.NEGATIVE_INFINITY);
        assertThat(n.toString()).isEqualTo("{\"finite\":1.5,\"nan\":null,\"inf\":null}");
    }
}
