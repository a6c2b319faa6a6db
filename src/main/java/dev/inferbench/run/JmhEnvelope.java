package dev.inferbench.run;

import java.util.List;

/**
 * JMH's JSON of one result split into its envelope and its body: {@code [\n} + body + {@code \n]\n\n\n} as JMH 1.37
 * writes it, found in the text itself (from the line of the first '{' to the last '}'), so that the bodies of many
 * results written one at a time join into the file JMH's writer gives for all of them at once ({@code RunStoreTest}
 * checks that they are the same bytes).
 */
record JmhEnvelope(String head, String body, String tail) {
    /** Between two results, as JMH separates the objects of its array. */
    static final String SEPARATOR = ",\n";

    static JmhEnvelope of(String oneResult) {
        int open = oneResult.indexOf('{');
        int close = oneResult.lastIndexOf('}');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not one JMH result: " + oneResult);
        }
        int lineStart = oneResult.lastIndexOf('\n', open) + 1;
        return new JmhEnvelope(oneResult.substring(0, lineStart), oneResult.substring(lineStart, close + 1),
                oneResult.substring(close + 1));
    }

    /** The file of several results' bodies, in this envelope. */
    String around(List<String> bodies) {
        return head + String.join(SEPARATOR, bodies) + tail;
    }
}
