package dev.inferbench.engine;

/**
 * The results of one inference; holds native memory until closed. Read them before the next run of the same
 * prepared input: an engine may write every run's results into the same memory (ort does, from the third run on).
 */
public interface Outputs extends AutoCloseable {
    int count();

    long[] shape(int index);

    /**
     * Copies output {@code index} to the Java heap, or returns an empty array when it is not float32. For
     * correctness checks, never inside a measured method.
     */
    float[] floats(int index);

    @Override
    void close();
}
