package dev.inferbench.run;

import java.io.IOException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded mutations of a text, for fuzzing readers: cuts, insertions of characters that parsers care about,
 * duplicated and dropped lines, truncation; and, for JSON, mutants that still parse: values replaced by edge cases
 * (0, negative, huge, NaN and infinities as JMH writes them, wrong types), entries dropped or repeated. The same seed
 * gives the same mutant.
 */
public final class Mutator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] EDGE_VALUES = {"0", "-1", "1e308", "-1e308", "4.9e-324", "\"NaN\"", "\"Infinity\"",
            "\"-Infinity\"", "\"\"", "\"x\"", "null", "[]", "{}", "[[]]", "[0]", "true", "9223372036854775807"};
    private static final String INTERESTING = "=:\\u{}[]\",.#!\n\r\t -+0123456789eENaInfinity\u00b7\u0000\uffff";

    private Mutator() {
    }

    public static String mutate(String text, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        StringBuilder sb = new StringBuilder(text);
        int edits = 1 + rnd.nextInt(4);
        for (int e = 0; e < edits && sb.length() > 0; e++) {
            int at = rnd.nextInt(sb.length());
            switch (rnd.nextInt(6)) {
                case 0 -> sb.delete(at, Math.min(sb.length(), at + 1 + rnd.nextInt(20)));
                case 1 -> {
                    for (int i = rnd.nextInt(8); i >= 0; i--) {
                        sb.insert(at, INTERESTING.charAt(rnd.nextInt(INTERESTING.length())));
                    }
                }
                case 2 -> sb.setLength(at);
                case 3 -> {
                    int end = sb.indexOf("\n", at);
                    if (end > at) {
                        sb.insert(end, sb.substring(at, end));
                    }
                }
                case 4 -> sb.setCharAt(at, (char) rnd.nextInt(0x20, 0x7f));
                default -> sb.replace(at, Math.min(sb.length(), at + 1), Long.toString(rnd.nextLong()));
            }
        }
        return sb.toString();
    }

    /** A mutant of valid JSON that is still valid JSON: 1 to 3 edits of values and entries anywhere in the tree. */
    public static String mutateJson(String json, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        try {
            JsonNode root = JSON.readTree(json);
            for (int e = 1 + rnd.nextInt(3); e > 0; e--) {
                List<ContainerNode<?>> containers = new ArrayList<>();
                collect(root, containers);
                ContainerNode<?> c = containers.get(rnd.nextInt(containers.size()));
                if (c.size() == 0) {
                    continue;
                }
                int at = rnd.nextInt(c.size());
                JsonNode value = JSON.readTree(EDGE_VALUES[rnd.nextInt(EDGE_VALUES.length)]);
                int edit = rnd.nextInt(4);
                if (c instanceof ObjectNode o) {
                    List<String> names = new ArrayList<>();
                    o.fieldNames().forEachRemaining(names::add);
                    String field = names.get(at);
                    if (edit == 0) {
                        o.remove(field);
                    } else {
                        o.set(field, value);
                    }
                } else if (c instanceof ArrayNode a) {
                    switch (edit) {
                        case 0 -> a.remove(at);
                        case 1 -> a.insert(at, a.get(at).deepCopy());
                        default -> a.set(at, value);
                    }
                }
            }
            return JSON.writeValueAsString(root);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    private static void collect(JsonNode n, List<ContainerNode<?>> out) {
        if (n instanceof ContainerNode<?> c) {
            out.add(c);
            n.forEach(child -> collect(child, out));
        }
    }
}
