package dev.inferbench.commits;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A figure written with a fixed number of decimals, rounded as C's printf and Python's format round: the double's
 * exact binary value, ties to even. {@code String.format} rounds its shortest decimal form half up instead, which
 * reads 62.5 as 63 where the ledger's earlier summaries (and anyone checking them with printf) read 62.
 */
final class FixedPoint {
    private FixedPoint() {
    }

    static String of(double v, int places) {
        return new BigDecimal(v).setScale(places, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** With its sign always written, as {@code %+.Nf}. */
    static String signed(double v, int places) {
        String s = of(v, places);
        return s.startsWith("-") ? s : "+" + s;
    }
}
