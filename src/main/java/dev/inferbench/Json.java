package dev.inferbench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.EnumSet;
import java.util.List;

/**
 * The one Jackson set-up. Every mapper made here writes into a stream it is given without closing it (the owner
 * closes, as with every writer here); Jackson closes a file it opened itself either way. The rest is chosen per
 * file format by {@link Option}s, so that two formats that read alike are read by one configuration.
 */
public final class Json {
    /** What a format needs beyond the plain set-up (strict reading of known fields, compact writing). */
    public enum Option {
        /** Indented output, Jackson's default pretty printer: files a person opens. */
        PRETTY,
        /** Unknown fields are skipped: files an older or newer build wrote (a plan, a pass's entries). */
        LENIENT,
        /**
         * A record must be whole: a missing primitive or anything after the value is an error, as for the forks'
         * records, which rebuild a JMH result and must not be filled in with defaults.
         */
        WHOLE,
        /** Jackson's fast double parser and writer: JDK 17's own conversions were a third of a big report's time. */
        FAST_DOUBLES
    }

    private Json() {
    }

    /** A new mapper with the options given; callers keep it in a constant, as a mapper is costly to make. */
    public static ObjectMapper mapper(Option... options) {
        EnumSet<Option> set = EnumSet.noneOf(Option.class);
        set.addAll(List.of(options));
        JsonFactory factory = set.contains(Option.FAST_DOUBLES)
                ? JsonFactory.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                        .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build()
                : new JsonFactory();
        JsonMapper.Builder b = JsonMapper.builder(factory).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        if (set.contains(Option.PRETTY)) {
            b.enable(SerializationFeature.INDENT_OUTPUT);
        }
        if (set.contains(Option.LENIENT)) {
            b.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        }
        if (set.contains(Option.WHOLE)) {
            b.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        }
        return b.build();
    }

    /** Puts a number, or null where it is NaN or infinite: JSON has neither, and a reader should not guess. */
    public static void putNumber(ObjectNode node, String name, double value) {
        if (Double.isFinite(value)) {
            node.put(name, value);
        } else {
            node.putNull(name);
        }
    }
}
