package dev.inferbench.run;

import dev.inferbench.cell.Cell;
import dev.inferbench.BenchException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;

import java.nio.file.Path;

/**
 * Something that rides along with every fork (a profiler writing into the fork's own folder, a post-processing
 * step): the loop calls it before each fork starts and after it ends, and after the last fork of each cell.
 */
public interface ForkHook {

    /** Adds this fork's options, e.g. a profiler whose output goes to {@code forkDir}. */
    void beforeFork(Cell cell, int fork, Path forkDir, ChainedOptionsBuilder options) throws BenchException;

    /** After the fork, whether or not it produced a result. */
    default void afterFork(Cell cell, int fork, Path forkDir, boolean landed) throws BenchException {
    }

    /**
     * A line of JMH's fork log as it should read: a hook that moves what JMH wrote (a profiler's file) says where
     * it went. The line as it is by default.
     */
    default String logLine(String line) {
        return line;
    }

    /** After the run, for each cell with at least one landed fork; {@code cellDir} holds its fork folders. */
    default void afterCell(Cell cell, Path cellDir) throws BenchException {
    }
}
