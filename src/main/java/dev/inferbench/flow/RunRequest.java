package dev.inferbench.flow;

import dev.inferbench.prepare.JmhArgs;

import java.util.List;

/**
 * A benchmark run as the command line asked for it, every flag parsed: what {@link RunFlow} takes.
 *
 * @param argv    the command line as typed, for run.properties
 * @param args    the JMH options, read once; of a resumed run, only its {@code -f N}
 * @param options inferbench's own flags
 * @param verbose {@code --verbose}: stack traces with failures
 */
public record RunRequest(List<String> argv, JmhArgs.Parsed args, RunOptions options, boolean verbose) {
}
