package dev.inferbench.engine;

/** The results of one inference; holds native memory until closed. */
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
