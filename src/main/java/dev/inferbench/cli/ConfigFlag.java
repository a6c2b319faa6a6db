package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.config.BenchConfig;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code --config FILE}, the user's own benchmarks.properties outside the checkout: declared once here for a run and
 * for every subcommand that reads the configuration ({@code models}, {@code verify}, {@code history}, {@code merge}),
 * so that one file names the user's models everywhere.
 */
final class ConfigFlag {
    private ConfigFlag() {
    }

    /** The flag in {@code table}; its value is a file whose keys were read (a bad key fails here, naming the file). */
    static Options.Flag<Path> declare(Options table) {
        return table.value("--config", "FILE", new Options.Type<>("a properties file, e.g. my-models.properties",
                (t, f) -> file(t)), null, "your own " + BenchConfig.FILE_NAME + ", outside the checkout (default:"
                + " the checkout's)");
    }

    /** The configuration {@code --config} names, or the usual lookup ({@link BenchConfig#load}) without one. */
    static BenchConfig load(Path given) throws BenchException {
        return given == null ? BenchConfig.load() : BenchConfig.fromFile(given);
    }

    private static Path file(String v) throws BenchException {
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw new BenchException("config file not found: " + p + " (from --config); expected a properties file"
                    + " such as benchmarks.properties");
        }
        BenchConfig.fromFile(p);
        return p;
    }
}
