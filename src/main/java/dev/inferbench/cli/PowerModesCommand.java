package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.commits.PowerLedger;
import dev.inferbench.commits.PowerModes;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code power-modes}: what a comparison sees, mode by mode, from the spread of real comparisons' pairs
 * ({@link PowerModes}). Here the flags are read and the comparison chosen.
 */
final class PowerModesCommand implements Subcommand {
    private static final Options OPTIONS = new Options("power-modes", "");
    private static final Options.Flag<PowerLedger.Cell> CELL = OPTIONS.value("--cell", "C", PowerLedgerCommand.CELL_TYPE,
            PowerLedger.Cell.MLP_TINY, "mlp-tiny (default) or resnet50, the cells of power-ledger (-i 2 in every mode)");
    private static final Options.Flag<List<PowerModes.Mode>> MODES = OPTIONS.value("--modes", "M,...",
            new Options.Type<>("modes, e.g. interleaved,pin", (t, f) -> modes(t, f)),
            List.of(PowerModes.Mode.INTERLEAVED, PowerModes.Mode.PIN, PowerModes.Mode.DUET),
            "interleaved (forks A, B, A, B), pin (the same on CPU 0, --pin), duet (both at once, a CPU each, --duet),"
                    + " turns (one iteration each in turn, --turns); default interleaved,pin,duet");
    private static final Options.Flag<Integer> ROUNDS = OPTIONS.value("--rounds", "N",
            Options.whole(1, "rounds, e.g. --rounds 2"), 2, "rounds (default 2)");
    private static final Options.Flag<Integer> MINUTES = OPTIONS.value("--minutes", "N",
            PowerLedgerCommand.MINUTES_TYPE, 3,
            "each comparison's time, whole minutes (default 3)");
    private static final Options.Flag<Integer> BUDGET = OPTIONS.value("--budget", "B",
            PowerLedgerCommand.MINUTES_TYPE, 10,
            "the budget the table projects to, whole minutes (default 10m)");
    private static final Options.Flag<Integer> SLOWDOWN = OPTIONS.value("--slowdown", "P",
            PowerLedgerCommand.SLOWDOWN_TYPE, 0,
            "plant P % on the head side (default 0: A/A)");
    private static final Options.Flag<Path> OUT = OPTIONS.value("--out", "DIR", Options.FOLDER, null,
            "where the comparisons go (default results/power-modes-<time>)");

    private final Path checkout;
    private final CommitsWiring wiring;

    PowerModesCommand() {
        this(Path.of("").toAbsolutePath(), CommitsWiring.production());
    }

    PowerModesCommand(Path checkout, CommitsWiring wiring) {
        this.checkout = checkout;
        this.wiring = wiring;
    }

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": the smallest slowdown each comparison mode sees, from real comparisons' pairs";
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Rounds of comparisons of this checkout against itself with compare-commits, one per mode per
                round, the modes taking turns; from each comparison's forks the spread of a pair's log ratio
                (paired; for interleaved forks also Welch's, the sides read apart) and the seconds a pair took;
                then, per mode, the smallest slowdown a comparison of the budget finds with 95 % power at the
                gate's 99 % (t quantiles), the median over the rounds, beside each comparison's verdict and exit
                code. Run it from the checkout's root.
                """, "Exit 0 done, 2 bad input.\n");
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        try {
            PowerModes.Request request = parse(args, checkout);
            if (!Files.isRegularFile(checkout.resolve(Path.of("target", "benchmarks.jar")))) {
                throw new BenchException("build this checkout first: mvn -q package -DskipTests");
            }
            return new PowerModes(wiring.comparison(), out).run(request);
        } catch (BenchException e) {
            err.println("power-modes: " + e.getMessage());
            return ExitCode.BAD_INPUT;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static PowerModes.Request parse(List<String> args, Path checkout) throws BenchException {
        Options.Parsed p = OPTIONS.parse(args);
        Path folder = p.has(OUT) ? p.get(OUT) : Path.of("results", "power-modes-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        return new PowerModes.Request(p.get(CELL), p.get(MODES), p.get(ROUNDS), p.get(MINUTES), p.get(BUDGET),
                p.get(SLOWDOWN), checkout.resolve(folder).toAbsolutePath().normalize());
    }

    private static List<PowerModes.Mode> modes(String modes, String flag) throws BenchException {
        Options.Type<PowerModes.Mode> mode = Options.choice("a mode; expected interleaved, pin, duet or turns",
                Arrays.stream(PowerModes.Mode.values()).collect(Collectors.toMap(PowerModes.Mode::label, m -> m)));
        List<PowerModes.Mode> list = new ArrayList<>();
        for (String m : modes.split(",", -1)) {
            if (list.contains(mode.reader().read(m, flag))) {
                throw new BenchException(flag + " names " + m + " twice; expected each mode once");
            }
            list.add(mode.reader().read(m, flag));
        }
        return List.copyOf(list);
    }
}
