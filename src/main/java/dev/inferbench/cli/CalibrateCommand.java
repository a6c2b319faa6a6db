package dev.inferbench.cli;

import dev.inferbench.BenchException;
import dev.inferbench.calibration.CalibrationTable;
import dev.inferbench.calibration.Checks;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * {@code calibrate [--fast] [--only TEXT]... [-o OUT]}: every headline figure read on a workload whose true value is known (the stub
 * engine's planted cost, the leaking fault, the slowdown aid), as a table of planted value against reading; exit 1 when
 * a row fails. {@code calibrate CHECK ...}: one of the instrument's checks in a JVM of its own ({@link Checks}), with
 * the check's exit code.
 */
final class CalibrateCommand implements Subcommand {

    private static final Options OPTIONS = new Options("calibrate", "");
    private static final Options.Flag<Boolean> FAST = OPTIONS.toggle("--fast", "only the rows that take seconds (mvn"
            + " verify -Pcalibration runs them); without it, also the rate searches and the comparison (about 15"
            + " minutes in all)");
    private static final Options.Flag<String> ONLY = OPTIONS.value("--only", "TEXT",
            Options.TEXT.expecting("a part of a figure's name, e.g. sustainable"), null, "only the rows whose figure"
                    + " names TEXT (e.g. --only sustainable); given again, the rows that name any of them").repeatable();
    private static final Options.Flag<Path> OUT = OPTIONS.value("-o", "OUT", Options.FOLDER, null,
            "where each row's run goes (default: results/calibration-<time>)");

    @Override
    public String summary() {
        return OPTIONS.synopsis() + ": each figure read against a planted truth (stub engine of known cost), as"
                + " a table; exit 1 when one misses; calibrate CHECK: " + String.join(", ", Checks.ARGUMENTS.keySet());
    }

    @Override
    public String usage() {
        return OPTIONS.usage("""
                Runs this jar on workloads whose true figures are known (the stub engine: -p engine=stub with
                -Dinferbench.stub=call=,cpu=,alloc=,tail=,load=,first=,native=,heap=,prefill=,token=; the leaking
                fault; the slowdown aid) and prints, per figure, the planted value, the reading, the error and
                whether it is within what is allowed.
                See docs/calibration.md.
                """, """
                Exit: 0 every row holds, 1 a row fails, 2 bad input.
                calibrate CHECK [ARGS]
                One of the instrument's checks, each in a JVM of its own (docs/calibration.md, "Checks in one JVM"):
                  aid-check MODEL PERCENT [ROUNDS=1600]   the slowdown aid (-Dinferbench.slowdown) held to its label
                                                          on one cell; exit 0 held, 1 not held, 3 cannot tell
                  step-check MODEL [PROMPT_LEN=32] [OUTPUT_LEN=64] [ROUNDS=400]
                                                          what GenerationBenchmark adds to ORT's binding per token;
                                                          exit 0 under 1 %, 1 more or other tokens, 3 cannot tell
                  tail-check MODEL [BATCH=1] [ROUNDS=600] [--jfr]
                                                          what --tail's slow-call recorder (with --jfr, and its JFR
                                                          recording) adds to a call; exit 0 at most 1 %, 1 more,
                                                          3 cannot tell
                  alloc-per-call MODEL [BATCH=1] [ENGINE=ort]
                                                          every heap byte of one call, by site, and its flame graph
                                                          (results/alloc/MODEL-bBATCH-ENGINE/)
                  open-loop-path [ROUNDS=2]               the open loop's path from a request's time to its call,
                                                          fresh JVMs cold and rehearsed in turn
                  memory-plateau [--iterations 10] [--bound-mib 16] [JMH args]
                                                          one long fork's mem.rss per iteration; exit 1 when it
                                                          grew by more than the bound after the first
                  kill-resume [KILLS=5] [--seed 42] [JMH args]
                                                          a run killed with SIGKILL and resumed, KILLS times; exit 1
                                                          when a finished fork was lost
                  tpot-crosscheck [--against c|node] MODEL.onnx [ROUNDS=5] [PROMPT_LEN=128] [OUTPUT_LEN=64]
                                  [THREADS=1] [WARMUP_S=2] [MEASURE_S=6]
                                                          the harness's TPOT against a plain loop outside Java
                                                          (tools/tpot-crosscheck/loop.c or loop.js)
                aid-check, step-check, tail-check and alloc-per-call need the model file (a run of the cell makes
                zoo models); exit 2 bad input.
                """);
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws BenchException {
        if (!args.isEmpty() && Checks.isCheck(args.get(0))) {
            return Checks.run(jar(), args.get(0), args.subList(1, args.size()));
        }
        Options.Parsed p = OPTIONS.parse(args);
        if (!p.operands().isEmpty()) {
            throw new BenchException("unexpected argument '" + p.operands().get(0) + "' for calibrate; expected: "
                    + OPTIONS.synopsis() + " or a check: " + String.join(", ", Checks.ARGUMENTS.keySet()));
        }
        Path target = p.get(OUT);
        if (target == null) {
            target = Path.of("results", "calibration-" + LocalDateTime.now().format(
                    DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        List<CalibrationTable.Outcome> rows = new CalibrationTable(jar(), target, out).run(p.get(FAST), p.all(ONLY));
        long failed = rows.stream().filter(r -> !r.holds()).count();
        out.println("inferbench: " + (rows.size() - failed) + " of " + rows.size() + " figures read their planted"
                + " value; runs in " + target);
        return failed == 0 ? 0 : 1;
    }

    /** The jar this command runs from: each row runs it again as a user would. */
    private static Path jar() throws BenchException {
        try {
            Path p = Path.of(CalibrateCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(p)) {
                return p;
            }
        } catch (URISyntaxException | SecurityException e) {
            throw new BenchException("cannot locate the jar to run (" + e.getMessage() + ")", e);
        }
        throw new BenchException("calibrate runs from the built jar; expected java -jar target/benchmarks.jar calibrate");
    }
}
