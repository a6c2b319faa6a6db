package dev.inferbench.engine;

import java.util.Locale;
import dev.inferbench.BenchException;

/** Where a model runs: {@code cpu}, or {@code cuda} / {@code cuda:N} for the N-th GPU. */
public record Device(Kind kind, int index) {

    public enum Kind { CPU, CUDA }

    public static final Device CPU = new Device(Kind.CPU, 0);

    public static Device parse(String text) throws BenchException {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.equals("cpu")) {
            return CPU;
        }
        if (s.equals("cuda") || s.equals("gpu")) {
            return new Device(Kind.CUDA, 0);
        }
        if (s.startsWith("cuda:")) {
            try {
                int index = Integer.parseInt(s.substring(5));
                if (index >= 0) {
                    return new Device(Kind.CUDA, index);
                }
            } catch (NumberFormatException ignored) {
                // falls through to the error below
            }
        }
        throw new BenchException("unknown device '" + text + "'; expected one of: cpu, cuda, cuda:N");
    }

    @Override
    public String toString() {
        return kind == Kind.CPU ? "cpu" : "cuda:" + index;
    }
}
