package dev.inferbench.generate;

import dev.inferbench.BenchException;
import dev.inferbench.engine.DecoderLayout;

import java.nio.file.Path;

/** A generation cell's lengths, held against the context its decoder declares before JMH starts. */
public interface FitsContext {
    /**
     * Refuses, in one line, lengths the decoder's declared context cannot hold (a file that declares none passes), and
     * a prompt file the model's tokenizer ({@code tokenizer.json} beside {@code file}) cannot encode.
     */
    void check(DecoderLayout layout, String model, Path file) throws BenchException;
}
