package dev.inferbench.quality;

/**
 * How closely a variant's output follows its fp32 reference on the same inputs: the share of samples whose top-1
 * class agrees (%), the largest absolute difference of any output element, and the cosine similarity of the two
 * outputs as flat vectors, over {@code samples} samples.
 */
public record Fidelity(double top1Agreement, double maxAbsError, double cosine, int samples) {

    /**
     * @param reference the fp32 output, {@code samples} rows of classes each
     * @param variant   the variant's output for the same inputs, same shape
     */
    public static Fidelity of(float[] reference, float[] variant, int samples) {
        if (reference.length != variant.length || samples <= 0 || reference.length % samples != 0) {
            throw new IllegalArgumentException("outputs of different shapes: " + reference.length + " vs "
                    + variant.length + " values for " + samples + " samples");
        }
        int classes = reference.length / samples;
        int agree = 0;
        for (int s = 0; s < samples; s++) {
            if (TopK.argmax(reference, s * classes, classes) == TopK.argmax(variant, s * classes, classes)) {
                agree++;
            }
        }
        double maxAbs = 0;
        double dot = 0;
        double nr = 0;
        double nv = 0;
        for (int i = 0; i < reference.length; i++) {
            maxAbs = Math.max(maxAbs, Math.abs((double) reference[i] - variant[i]));
            dot += (double) reference[i] * variant[i];
            nr += (double) reference[i] * reference[i];
            nv += (double) variant[i] * variant[i];
        }
        double cosine = nr == 0 && nv == 0 ? 1 : dot / Math.sqrt(nr * nv);
        return new Fidelity(100.0 * agree / samples, maxAbs, cosine, samples);
    }
}
