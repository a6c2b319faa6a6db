package dev.inferbench;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Looks a user-given name up among an enum's ids, failing with the message every such lookup shares. */
public final class EnumLookup {
    private EnumLookup() {
    }

    /** @param what the kind of name, as the user would say it: "engine", "zoo architecture" */
    public static <E extends Enum<E>> E parse(E[] values, Function<E, String> id, String what, String given)
            throws BenchException {
        for (E v : values) {
            if (id.apply(v).equals(given)) {
                return v;
            }
        }
        String choices = Arrays.stream(values).map(id).collect(Collectors.joining(", "));
        throw new BenchException("unknown " + what + " '" + given + "'; expected one of: " + choices);
    }
}
