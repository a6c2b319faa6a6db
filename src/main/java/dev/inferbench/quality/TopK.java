package dev.inferbench.quality;

/** Ranks within one row of class scores. */
final class TopK {
    private TopK() {
    }

    static int argmax(float[] scores, int offset, int length) {
        int best = 0;
        for (int i = 1; i < length; i++) {
            if (scores[offset + i] > scores[offset + best]) {
                best = i;
            }
        }
        return best;
    }

    /** Whether {@code label} is among the {@code k} highest scores of the row (ties count against it). */
    static boolean inTopK(float[] scores, int offset, int length, int label, int k) {
        float own = scores[offset + label];
        int higher = 0;
        for (int i = 0; i < length; i++) {
            if (i != label && scores[offset + i] >= own) {
                higher++;
            }
        }
        return higher < k;
    }
}
