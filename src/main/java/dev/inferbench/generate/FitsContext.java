package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;

/** A generation cell's lengths, held against the context its decoder declares before JMH starts. */
public interface FitsContext {
    /** Refuses, in one line, lengths the decoder's declared context cannot hold; a file that declares none passes. */
    void check(DecoderLayout layout, String model) throws BenchException;
}
