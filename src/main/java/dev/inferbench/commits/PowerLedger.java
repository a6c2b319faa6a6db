package dev.inferbench.commits;

import dev.inferbench.BenchException;
import dev.inferbench.ExitCode;
import dev.inferbench.compare.Comparer;
import dev.inferbench.results.jmh.MeasuredCell;
import dev.inferbench.results.Fingerprint;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The gate's power and false-alarm rate, measured on real comparisons instead of projected: COUNT comparisons of the
 * checkout against itself at the README's CI settings (--precision 2% --fail-on-regression, the budget given), the
 * slowdown aid planting P % on the head side (0: an A/A comparison), each appended to the ledger as soon as it ends,
 * so that an interrupted proof loses nothing and proofs spread over days add up; then the summary
 * ({@link LedgerSummary}), which {@code --summary} prints alone. {@code --since COMMIT} counts only comparisons made
 * at COMMIT or a commit after it, so that a count never mixes two designs of the gate. {@code --two-builds COMMIT}
 * compares COMMIT built twice ({@link TwinBuild}) instead of the checkout against its own jar, the sides swapping
 * every other comparison: the rate a CI gate that compares two builds has. Its lines carry the mode
 * {@value #TWO_BUILDS} after the pairing's, so the summary counts them apart.
 */
public final class PowerLedger {
    /** The ledger the evidence pages quote, in the checkout. */
    public static final Path DEFAULT_LEDGER = Path.of("docs", "evidence", "power-ledger.tsv");
    /** What the mode column adds for comparisons of one commit built twice. */
    public static final String TWO_BUILDS = "two-builds";
    /**
     * What the mode column adds for a cell of microseconds in turns: short turns on one CPU, the others kept busy, the
     * trimmed mean gated.
     */
    public static final String TRIMMED_ON_ONE_CPU = "trimmed-1cpu-busy";
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'")
            .withZone(ZoneOffset.UTC);

    /** The cells a proof runs: short forks, so that a proof of tens of comparisons fits in hours. */
    public enum Cell {
        RESNET50("resnet50", "1s"), MLP_TINY("mlp-tiny", "500ms");

        final String model;
        final String time;

        Cell(String model, String time) {
            this.model = model;
            this.time = time;
        }

        public String model() {
            return model;
        }

        /**
         * In turns a pair's two sides run seconds apart, so what is left of its spread is the calls' own noise, which
         * more measured iterations per fork average down at no extra JVM start: six a fork instead of two.
         */
        List<String> jmhArgs(boolean turns) {
            if (turns && this == MLP_TINY) {
                return List.of("-p", "model=" + model, "-p", "batchSize=1", "-p", "threads=1", "-wi", "1", "-w", "1s",
                        "-i", "20", "-r", "100ms");
            }
            return List.of("-p", "model=" + model, "-p", "batchSize=1", "-p", "threads=1", "-wi", "1", "-w", time,
                    "-i", turns ? "6" : "2", "-r", time);
        }

        /**
         * A cell of microseconds in turns is compared as docs/statistics.md ("Microsecond cells") says to: turns of
         * 100 ms, both sides on one CPU (the last) with the others kept busy, the trimmed mean gated.
         */
        boolean microseconds(boolean turns) {
            return turns && this == MLP_TINY;
        }

        List<String> compareArgs(boolean turns) {
            if (!microseconds(turns)) {
                return List.of();
            }
            int cpu = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
            List<String> args = new ArrayList<>(List.of("--pin", Integer.toString(cpu), "--gate", MeasuredCell.TRIMMED));
            if (cpu > 0) {
                args.addAll(List.of("--keep-busy", cpu == 1 ? "0" : "0-" + (cpu - 1)));
            }
            return args;
        }

        Set<String> gate(boolean turns) {
            return microseconds(turns) ? Set.of(MeasuredCell.TRIMMED) : Comparer.PRIMARY_ONLY;
        }
    }

    /**
     * {@code power-ledger} as the command line asked for it.
     *
     * @param cell     the cell to measure; null with {@code summary}
     * @param slowdown the planted slowdown in whole percent
     * @param budget   each comparison's budget in whole minutes ("10m"), as the ledger records it
     * @param ledger   the ledger file, relative to the checkout unless absolute
     * @param since    the commit from which comparisons count in the summary; null for all
     * @param twoBuilds the commit to build twice and compare against itself; null for the checkout against itself
     * @param offline  build the two with {@code mvn -o}
     */
    public record Request(Cell cell, int slowdown, int count, String budget, boolean turns, boolean keep, Path ledger,
                          boolean summary, String since, String twoBuilds, boolean offline) {
    }

    private final Path checkout;
    private final CommitComparison comparison;
    private final PrintStream out;
    private final TwinBuild.Builder builder;

    /** @param checkout the checkout compared against itself, where relative paths start and git is asked */
    public PowerLedger(Path checkout, CommitComparison comparison, PrintStream out) {
        this(checkout, comparison, out, TwinBuild.inWorktrees(checkout, out));
    }

    PowerLedger(Path checkout, CommitComparison comparison, PrintStream out, TwinBuild.Builder builder) {
        this.checkout = checkout;
        this.comparison = comparison;
        this.out = out;
        this.builder = builder;
    }

    /** @throws BenchException for bad input (exit 2) */
    public int run(Request request) throws BenchException, IOException {
        Ledger ledger = new Ledger(checkout.resolve(request.ledger()));
        if (request.summary()) {
            summarize(ledger, request.since());
            return ExitCode.OK;
        }
        if (!Files.isRegularFile(checkout.resolve(Path.of("target", "benchmarks.jar")))) {
            throw new BenchException("build this checkout first: mvn -q package -DskipTests");
        }
        ledger.prepare();
        if (request.twoBuilds() == null) {
            String commit = new GitCall(checkout).must("rev-parse", "--short=12", "HEAD").strip();
            compareAll(request, ledger, commit, null);
        } else {
            String sha = new GitCall(checkout).commit(request.twoBuilds()).orElseThrow(() -> new BenchException(
                    "--two-builds '" + request.twoBuilds() + "' is not a commit of this repository"));
            Path logs = Files.createTempDirectory("power-ledger-builds-logs.");
            try (TwinBuild twin = builder.build(sha, request.offline(), logs)) {
                compareAll(request, ledger, sha.substring(0, 12), twin.sides());
            }
        }
        summarize(ledger, request.since());
        return ExitCode.OK;
    }

    /** @param sides the two builds, or null for the checkout against itself */
    private void compareAll(Request request, Ledger ledger, String commit, List<Path> sides)
            throws BenchException, IOException {
        String mode = (request.turns() ? "turns" : "interleaved")
                + (request.cell().microseconds(request.turns()) ? " " + TRIMMED_ON_ONE_CPU : "")
                + (sides == null ? "" : " " + TWO_BUILDS);
        String machine = machine();
        List<String> extra = new ArrayList<>();
        if (request.slowdown() > 0) {
            extra.addAll(List.of("--head-args", "-jvmArgsAppend -Dinferbench.slowdown=" + request.slowdown()));
        }
        if (request.turns()) {
            extra.add("--turns");
        }
        extra.addAll(request.cell().compareArgs(request.turns()));
        for (int i = 1; i <= request.count(); i++) {
            Path folder = Files.createTempDirectory("power-ledger.");
            long seed = Instant.now().getEpochSecond() % 100000 + i;
            out.println("[power-ledger] comparison " + i + " of " + request.count() + ": " + request.cell().model() + ", "
                    + mode + ", " + request.slowdown() + " % planted, budget " + request.budget() + ", seed " + seed
                    + "; in " + folder);
            // two builds swap sides every other comparison: a difference between the builds reads both ways
            List<String> args = new ArrayList<>(sides == null ? List.of(".", ".") : i % 2 == 1
                    ? List.of(sides.get(0).toString(), sides.get(1).toString())
                    : List.of(sides.get(1).toString(), sides.get(0).toString()));
            args.addAll(request.cell().jmhArgs(request.turns()));
            args.addAll(List.of("--precision", "2%", "--budget", request.budget(), "--fail-on-regression", "--seed",
                    Long.toString(seed)));
            args.addAll(extra);
            args.addAll(List.of("--out", folder.toString()));
            int code = compare(args, folder.resolveSibling(folder.getFileName() + ".log"));
            LedgerFigures f = LedgerFigures.of(folder, request.cell().gate(request.turns()));
            List<String> fields = new ArrayList<>(List.of(WHEN.format(Instant.now()), commit, request.cell().model(),
                    Integer.toString(request.slowdown()), request.budget()));
            fields.addAll(f.fields().subList(0, 5));
            fields.addAll(List.of(Integer.toString(code), f.disturbed(), machine, mode));
            ledger.append(fields);
            out.println("[power-ledger] exit " + code + ": ratio " + f.ratio() + " [" + f.lower() + ", " + f.upper()
                    + "], " + f.pairs() + " pairs, " + f.disturbed() + " disturbed left out (" + f.verdict() + ")");
            if (!request.keep()) {
                delete(folder);
            }
        }
    }

    private int compare(List<String> args, Path log) throws IOException {
        return comparison.runInto(args, log);
    }

    private void summarize(Ledger ledger, String since) throws BenchException, IOException {
        if (!ledger.exists()) {
            throw new BenchException("no ledger at " + ledger.file() + "; expected a file power-ledger wrote");
        }
        List<Map<String, String>> rows = ledger.rows();
        Set<String> kept = null;
        if (since != null) {
            GitCall git = new GitCall(checkout);
            if (git.commit(since).isEmpty()) {
                throw new BenchException("--since '" + since + "' is not a commit of this repository");
            }
            kept = new LinkedHashSet<>();
            for (String c : rows.stream().map(r -> r.getOrDefault("commit", "")).distinct().toList()) {
                if (git.isAncestor(since, c)) {
                    kept.add(c);
                }
            }
            out.println("power-ledger: counting only comparisons made at " + since + " or after it");
        }
        LedgerSummary.lines(rows, kept).forEach(out::println);
    }

    /** "2 cores, AMD EPYC 7B13, AVX-512": what a rate was measured on, as the ledger's machine column says it. */
    private static String machine() {
        Map<String, String> cpu = Fingerprint.cpuinfo();
        String model = cpu.getOrDefault("model name", "");
        boolean avx512 = List.of(cpu.getOrDefault("flags", "").split("\\s+")).contains("avx512f");
        return Runtime.getRuntime().availableProcessors() + " cores, " + (model.isEmpty() ? "unknown CPU" : model)
                + (avx512 ? ", AVX-512" : "");
    }

    private static void delete(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
