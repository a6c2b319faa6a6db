package dev.inferbench.quality;

/** Top-1 and top-5 accuracy (%) of class scores against known labels. */
public record Accuracy(double top1, double top5) {

    /** @param scores one row of classes per label */
    public static Accuracy of(float[] scores, int[] labels) {
        int samples = labels.length;
        if (samples == 0 || scores.length % samples != 0) {
            throw new IllegalArgumentException(scores.length + " scores do not split into " + samples + " rows");
        }
        int classes = scores.length / samples;
        int top1 = 0;
        int top5 = 0;
        for (int s = 0; s < samples; s++) {
            top1 += TopK.inTopK(scores, s * classes, classes, labels[s], 1) ? 1 : 0;
            top5 += TopK.inTopK(scores, s * classes, classes, labels[s], Math.min(5, classes)) ? 1 : 0;
        }
        return new Accuracy(100.0 * top1 / samples, 100.0 * top5 / samples);
    }
}
