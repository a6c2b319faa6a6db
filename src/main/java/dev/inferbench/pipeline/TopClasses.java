package dev.inferbench.pipeline;

import java.util.Arrays;

/**
 * What a service does with a classifier's output: softmax over each row (the zoo models already end in one; real
 * exports often end in logits, and a service cannot tell, so it normalizes) and the k most likely classes.
 */
public final class TopClasses {
    private TopClasses() {
    }

    /** For each of {@code rows} rows of {@code scores}: the indices of its {@code k} largest softmax values. */
    public static int[][] of(float[] scores, int rows, int k) {
        int classes = scores.length / rows;
        int[][] top = new int[rows][];
        float[] probs = new float[classes];
        for (int r = 0; r < rows; r++) {
            softmax(scores, r * classes, classes, probs);
            top[r] = largest(probs, Math.min(k, classes));
        }
        return top;
    }

    static void softmax(float[] x, int from, int n, float[] out) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, x[from + i]);
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            out[i] = (float) Math.exp(x[from + i] - max);
            sum += out[i];
        }
        for (int i = 0; i < n; i++) {
            out[i] /= (float) sum;
        }
    }

    /** Insertion into a k-long sorted list: k is small (5), so this beats sorting the 1000 classes. */
    static int[] largest(float[] p, int k) {
        int[] idx = new int[k];
        float[] val = new float[k];
        Arrays.fill(val, Float.NEGATIVE_INFINITY);
        for (int i = 0; i < p.length; i++) {
            if (p[i] <= val[k - 1]) {
                continue;
            }
            int j = k - 1;
            while (j > 0 && val[j - 1] < p[i]) {
                val[j] = val[j - 1];
                idx[j] = idx[j - 1];
                j--;
            }
            val[j] = p[i];
            idx[j] = i;
        }
        return idx;
    }
}
