package dev.inferbench.quality;

import dev.inferbench.BenchException;
import dev.inferbench.engine.InferenceEngine;
import dev.inferbench.input.data.DataSource;
import dev.inferbench.input.data.ImageFolder;

import java.util.List;

/**
 * Top-1 / top-5 accuracy of a loaded model over every image of a labelled folder, batch by batch (the last batch
 * padded by repeating images, whose extra rows are not counted). Output 0 must hold one score per class.
 */
public final class AccuracyProbe {
    private AccuracyProbe() {
    }

    public static Accuracy measure(InferenceEngine engine, ImageFolder folder, String model, int batch)
            throws BenchException {
        int n = folder.images().size();
        float[] scores = null;
        int classes = 0;
        for (int first = 0; first < n; first += batch) {
            float[] out = FidelityProbe.output0(engine,
                    List.of(DataSource.images(folder, model, engine.signature().inputs(), batch, first)));
            if (scores == null) {
                classes = out.length / batch;
                if (classes < folder.classes().size()) {
                    throw new BenchException("model '" + model + "' scores " + classes + " classes; the image folder"
                            + " has " + folder.classes().size() + "; expected at least as many scores as classes");
                }
                scores = new float[n * classes];
            }
            int rows = Math.min(batch, n - first);
            System.arraycopy(out, 0, scores, first * classes, rows * classes);
        }
        return Accuracy.of(scores, folder.labels());
    }
}
