package dev.inferbench.run;

import java.util.SplittableRandom;

/**
 * Seeded mutations of a text, for fuzzing readers: cuts, insertions of characters that parsers care about,
 * duplicated and dropped lines, truncation. The same seed gives the same mutant.
 */
public final class Mutator {
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
}
