package dev.inferbench.cli;

import dev.inferbench.BenchException;

import java.util.List;

/** The value after a flag, or the one line every subcommand gives when it is missing. */
final class FlagValue {
    private FlagValue() {
    }

    /**
     * The argument at {@code i}, the value of {@code flag}; refused when there is none or when it is the next flag
     * (a forgotten value must not swallow the flag after it).
     *
     * @param expected what the value should be, for the refusal's line ("a folder", "a duration, e.g. 10m")
     */
    static String of(List<String> args, int i, String flag, String expected) throws BenchException {
        return of(args, i, flag, expected, false);
    }

    /** @param dashes whether the value may start with a dash: options in one argument for another program */
    static String of(List<String> args, int i, String flag, String expected, boolean dashes) throws BenchException {
        if (i >= args.size() || !dashes && args.get(i).startsWith("-")) {
            throw new BenchException(flag + " needs a value; expected " + expected);
        }
        return args.get(i);
    }
}
