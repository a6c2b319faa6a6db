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
import java.util.List;

/**
 * {@code power-modes [--cell mlp-tiny|resnet50] [--modes interleaved,pin,duet,turns] [--rounds 2] [--minutes 3]
 * [--budget 10m] [--slowdown P] [--out DIR]}: what a comparison sees, mode by mode, from the spread of real
 * comparisons' pairs ({@link PowerModes}). Here the flags are parsed and checked and the comparison chosen.
 */
final class PowerModesCommand implements Subcommand {
    private static final String USAGE = "power-modes [--cell mlp-tiny|resnet50] [--modes interleaved,pin,duet,turns]"
            + " [--rounds 2] [--minutes 3] [--budget 10m] [--slowdown P] [--out DIR]";

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
        return USAGE + ": the smallest slowdown each comparison mode sees, from real comparisons' pairs";
    }

    @Override
    public String usage() {
        return USAGE_PREFIX + """
                power-modes [--cell mlp-tiny|resnet50] [--modes interleaved,pin,duet,turns]
                            [--rounds 2] [--minutes 3] [--budget 10m] [--slowdown P] [--out DIR]
                Rounds of comparisons of this checkout against itself with compare-commits, one per mode per
                round, the modes taking turns; from each comparison's forks the spread of a pair's log ratio
                (paired; for interleaved forks also Welch's, the sides read apart) and the seconds a pair took;
                then, per mode, the smallest slowdown a comparison of the budget finds with 95 % power at the
                gate's 99 % (t quantiles), the median over the rounds, beside each comparison's verdict and exit
                code. Run it from the checkout's root.
                  --cell C      mlp-tiny (default) or resnet50, the cells of power-ledger (-i 2 in every mode)
                  --modes M,... interleaved (forks A, B, A, B), pin (the same on CPU 0, --pin), duet (both at
                                once, a CPU each, --duet), turns (one iteration each in turn, --turns); default
                                interleaved,pin,duet
                  --rounds N    rounds (default 2)
                  --minutes N   each comparison's time, whole minutes (default 3)
                  --budget B    the budget the table projects to, whole minutes (default 10m)
                  --slowdown P  plant P % on the head side (default 0: A/A)
                  --out DIR     where the comparisons go (default results/power-modes-<time>)
                Exit 0 done, 2 bad input.
                """;
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
        String cell = "mlp-tiny";
        String modes = "interleaved,pin,duet";
        String rounds = "2";
        String minutes = "3";
        String budget = "10m";
        String slowdown = "0";
        Path folder = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--cell" -> cell = value(args, ++i, a);
                case "--modes" -> modes = value(args, ++i, a);
                case "--rounds" -> rounds = value(args, ++i, a);
                case "--minutes" -> minutes = value(args, ++i, a);
                case "--budget" -> budget = value(args, ++i, a);
                case "--slowdown" -> slowdown = value(args, ++i, a);
                case "--out" -> folder = Path.of(value(args, ++i, a));
                default -> throw new BenchException("unknown argument '" + a + "'; expected --cell, --modes, --rounds,"
                        + " --minutes, --budget, --slowdown or --out");
            }
        }
        PowerLedger.Cell c = switch (cell) {
            case "resnet50" -> PowerLedger.Cell.RESNET50;
            case "mlp-tiny" -> PowerLedger.Cell.MLP_TINY;
            default -> throw new BenchException("--cell '" + cell + "' is not mlp-tiny or resnet50");
        };
        List<PowerModes.Mode> list = new ArrayList<>();
        for (String m : modes.split(",", -1)) {
            PowerModes.Mode mode = switch (m) {
                case "interleaved" -> PowerModes.Mode.INTERLEAVED;
                case "pin" -> PowerModes.Mode.PIN;
                case "duet" -> PowerModes.Mode.DUET;
                case "turns" -> PowerModes.Mode.TURNS;
                default -> throw new BenchException("unknown mode '" + m + "'; expected interleaved, pin, duet or turns");
            };
            if (list.contains(mode)) {
                throw new BenchException("--modes names " + m + " twice; expected each mode once");
            }
            list.add(mode);
        }
        if (!rounds.matches("[1-9][0-9]{0,5}")) {
            throw new BenchException("--rounds '" + rounds + "' is not a whole number >= 1");
        }
        if (!minutes.matches("[1-9][0-9]{0,5}m?") || !budget.matches("[1-9][0-9]{0,5}m?")) {
            throw new BenchException("--minutes and --budget are whole minutes >= 1, e.g. 3 or 10m; found '" + minutes
                    + "' and '" + budget + "'");
        }
        if (!slowdown.matches("[0-9]{1,2}") || Integer.parseInt(slowdown) > 50) {
            throw new BenchException("--slowdown '" + slowdown + "' is not a whole percent from 0 to 50");
        }
        if (folder == null) {
            folder = Path.of("results", "power-modes-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        return new PowerModes.Request(c, List.copyOf(list), Integer.parseInt(rounds),
                Integer.parseInt(minutes.replace("m", "")), Integer.parseInt(budget.replace("m", "")),
                Integer.parseInt(slowdown), checkout.resolve(folder).toAbsolutePath().normalize());
    }

    private static String value(List<String> args, int i, String flag) throws BenchException {
        if (i >= args.size()) {
            throw new BenchException(flag + " needs a value");
        }
        return args.get(i);
    }
}
