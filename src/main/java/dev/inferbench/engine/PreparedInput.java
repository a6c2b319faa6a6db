package dev.inferbench.engine;

/** Inputs converted once into an engine's own tensors, ready to be run many times. */
public interface PreparedInput extends AutoCloseable {
    @Override
    void close();
}
