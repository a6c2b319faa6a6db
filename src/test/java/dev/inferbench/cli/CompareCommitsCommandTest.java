package dev.inferbench.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * compare-commits' exit codes and its exchange with each side's launcher, driven with stand-ins for java and mvn
 * (src/test/resources/compare-commits) and for compare's two answers (the stop question and the verdict): every
 * failure that is not a verdict ends 4 (or 2 for bad input) with one line, never 0 or 1.
 */
class CompareCommitsCommandTest extends CompareCommitsFixture {
    @Test
    void eachPairsOrderIsASeededCoinRecordedInTheRunFolder() throws Exception {
        Ended e = run(Map.of(), ".", ".", "--forks", "6", "--seed", "7", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(e.out()).contains("[compare-commits] base .: JMH fake, built in repo"); // a side named as given
        assertThat(e.out()).contains("[compare-commits] stopped after 6 pairs: each side ran the 6 forks it was given"
                + " (--forks 6)\n");
        String order = read(out() + "/pair-order.txt");
        assertThat(order.lines()).hasSize(7).first().isEqualTo("seed 7");
        assertThat(order).contains("base first").contains("head first");
        Files.walk(repo.resolve("results/ab")).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        run(Map.of(), ".", ".", "--forks", "6", "--seed", "7", "--out", out());
        assertThat(read(out() + "/pair-order.txt")).as("the same seed, the same order").isEqualTo(order);
    }

    /** Pairs that end on their fork count with budget left say so, and what runs more, before the verdict. */
    @Test
    void aComparisonThatStopsBeforeItsBudgetSaysWhy() throws Exception {
        Ended e = run(Map.of(), ".", ".", "--forks", "3", "--budget", "20m", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(e.out()).containsPattern("\\[compare-commits\\] stopped after 3 pairs: each side ran the 3 forks it"
                + " was given \\(--forks 3\\); \\d+s of the budget 20m were left unused: --forks N runs more pairs,"
                + " or --precision P as many as an interval that narrow needs\n");
    }

    /**
     * The machine record is the script's own: one line per fork with its window, other processes' CPU over it and the
     * script's canary before and after its pair, windows in the order the forks ran.
     */
    @Test
    void eachForkHasALineOfTheScriptsOwnMachineRecord() throws Exception {
        Ended e = run(Map.of(), ".", ".", "--forks", "5", "--seed", "3", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        List<String> lines = read(out() + "/machine.tsv").lines().toList();
        assertThat(lines).hasSize(11).first()
                .isEqualTo("pair\tside\tstart_us\tend_us\tothers_cores\tcanary_before_ms\tcanary_after_ms");
        String before = null;
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split("\t");
            assertThat(f).hasSize(7);
            assertThat(f[0]).isEqualTo(String.valueOf((i + 1) / 2));
            assertThat(f[1]).isEqualTo(i % 2 == 1 ? "base" : "head");
            assertThat(Long.parseLong(f[3])).isGreaterThan(Long.parseLong(f[2]));
            assertThat(Double.parseDouble(f[4])).isGreaterThanOrEqualTo(0);
            assertThat(Double.parseDouble(f[5])).isPositive();
            if (i % 2 == 1 && before != null) {
                assertThat(f[5]).as("a pair's canary before is the previous pair's after").isEqualTo(before);
            }
            before = f[6];
        }
    }

    /** Where each pair's time went: one line per pair whose phases add up to no more than the pair's wall time. */
    @Test
    void eachPairsTimeIsSplitIntoItsPhases() throws Exception {
        Ended e = run(Map.of("FAKE_BASE_PROTOCOL", "4", "FAKE_HEAD_PROTOCOL", "4"), "continue: x", 0, ".", ".",
                "--precision", "2%", "--forks", "9", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        List<String> lines = read(out() + "/pair-time.tsv").lines().toList();
        assertThat(lines).hasSize(10).first()
                .isEqualTo("pair\tpasses_ms\tforks_ms\tcanary_ms\twrite_ms\tstop_ms\trest_ms\tpair_ms");
        for (int i = 1; i < lines.size(); i++) {
            double[] f = java.util.Arrays.stream(lines.get(i).split("\t")).mapToDouble(Double::parseDouble).toArray();
            assertThat(f).hasSize(8);
            assertThat(f[0]).isEqualTo(i);
            assertThat(f[1]).as("an operator pass before each pair").isPositive();
            assertThat(f[2]).as("two forks").isPositive();
            assertThat(f[3]).as("the canary").isPositive();
            assertThat(f[6]).as("the rest").isGreaterThanOrEqualTo(0);
            assertThat(f[1] + f[2] + f[3] + f[4] + f[5] + f[6]).isCloseTo(f[7], org.assertj.core.data.Offset.offset(0.01));
        }
        assertThat(lines.get(9).split("\t")[4]).as("the results written for the stop question at the last pair")
                .isNotEqualTo("0.000");
        assertThat(asked).as("asked after the pilot's last pair and the one after").hasSize(3);
    }

    /** A fork killed mid-comparison is run again at once, next to its partner: the pair is kept. */
    @Test
    void aHeadForkThatFailsMidComparisonIsRunAgainAndThePairKept() throws Exception {
        Ended e = run(Map.of("FAKE_HEAD_CRASH", "3"), ".", ".", "--forks", "6", "--seed", "1", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(e.out()).contains("[compare-commits] a head fork failed at pair 3 (no result landed; see " + out()
                + "/head.log); running it again\n");
        List<String> machine = read(out() + "/machine.tsv").lines().toList();
        assertThat(machine).filteredOn(l -> l.startsWith("3\t")).extracting(l -> l.split("\t")[1])
                .containsExactlyInAnyOrder("base", "head");
        assertThat(read(out() + "/head.input").lines().filter(l -> l.equals("go"))).as("the failed go and its rerun")
                .hasSize(6);
    }

    @Test
    void aForkThatFailsTwiceEndsFourInOneLine() throws Exception {
        Ended e = run(Map.of("FAKE_HEAD_CRASH", "3 4"), ".", ".", "--forks", "6", "--out", out());
        assertThat(e.code()).isEqualTo(4);
        assertThat(e.err().lines()).containsExactly("inferbench: a head fork failed at pair 3, twice (no result"
                + " landed, the launcher ran on); see " + out() + "/head.log");
        Ended turns = run(Map.of("FAKE_HEAD_CRASH", "2"), ".", ".", "--turns", "--forks", "4", "--out", out() + "2");
        assertThat(turns.code()).as("in turns the partner has gone: no rerun").isEqualTo(4);
        assertThat(turns.err()).contains("a head fork failed at pair 2 (no result landed");
    }

    @Test
    void aLauncherThatDiesMidComparisonEndsFour() throws Exception {
        Ended e = run(Map.of("FAKE_BASE_DIE", "2"), ".", ".", "--forks", "6", "--out", out());
        assertThat(e.code()).isEqualTo(4);
        assertThat(e.err().lines()).singleElement().asString()
                .startsWith("inferbench: the base side's launcher ended with exit 1 after 1 forks");
    }

    @Test
    void theScriptsOwnCommandsFailingEndFourNotOne() throws Exception {
        Files.writeString(repo.resolve("a-file"), "x");
        Ended mkdir = run(Map.of(), ".", ".", "--forks", "3", "--out", repo.resolve("a-file/out").toString());
        assertThat(mkdir.code()).isEqualTo(4);
        assertThat(mkdir.err().lines()).singleElement().asString()
                .startsWith("inferbench: cannot make " + repo.resolve("a-file/out"));
    }

    /** compare's verdicts are the script's: 3 (could not tell, a gated cell one side lacks among them) stays 3. */
    @Test
    void comparesVerdictsAreTheScriptsExitCodes() throws Exception {
        for (int rc : new int[]{1, 3}) {
            Ended e = run(Map.of(), "stop: fake", rc, ".", ".", "--forks", "3",
                    "--fail-on-regression", "--out", out() + rc);
            assertThat(e.code()).as(e.err()).isEqualTo(rc);
            assertThat(e.err()).doesNotContain("inferbench:");
        }
        assertThat(asked).hasSize(2).allSatisfy(l -> assertThat(l).startsWith("compare NaN true"));
    }

    @Test
    void aCompareThatCannotAnswerOrEndsOddlyEndsFour() throws Exception {
        Ended stop = run(Map.of(), null, 0, ".", ".", "--precision", "2%", "--out", out());
        assertThat(stop.code()).isEqualTo(4);
        assertThat(stop.err()).startsWith("inferbench: compare could not answer whether to stop: no jmh-result");
        Ended broken = run(Map.of(), "stop: fake", -1, ".", ".", "--forks", "3", "--out", out() + "2");
        assertThat(broken.code()).isEqualTo(4);
        assertThat(broken.err().lines()).containsExactly("inferbench: java.lang.IllegalStateException: compare broke");
        assertThat(read(out() + "2/head.input").lines()).as("the launchers ended before the failure was said")
                .containsOnly("go");
    }

    /**
     * compare is asked only where its answer can be stop: not before the pilot's last pair (8), then every pair while
     * the answer names no pair before which no stop can come.
     */
    @Test
    void theStopIsCompareAnsweringAStopQuestionWithThePilot() throws Exception {
        Ended e = run(Map.of(), "continue: pilot", 0, ".", ".", "--precision", "2%", "--forks", "12",
                "--fail-on-regression", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(asked.subList(0, asked.size() - 1)).as("asked after pairs 8 to 12").hasSize(5)
                .allMatch(l -> l.equals("stop 0.02 8 12"));
        assertThat(asked.get(asked.size() - 1)).startsWith("compare 0.02 true");
        assertThat(read(out() + "/pilot.txt")).as("compare reads the pilot beside the runs").isEqualTo("8\n");
        run(Map.of(), "stop: enough", 0, ".", ".", "--precision", "2%", "--forks", "12", "--out", out() + "2");
        assertThat(read(out() + "2/head.input").lines().filter(l -> l.equals("go"))).as("stopped at the first stop")
                .hasSize(8);
    }

    /** "no stop before pair K": the next question comes after pair K, not before. */
    @Test
    void theStopQuestionWaitsForThePairItsAnswerNamed() throws Exception {
        Ended e = run(Map.of(), "continue: 8 of the 11 pairs its pilot asked for (c time); no stop before pair 11", 0,
                ".", ".", "--precision", "2%", "--forks", "13", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(asked).filteredOn(l -> l.startsWith("stop")).as("asked after pairs 8, 11, 12 and 13").hasSize(4);
        List<String> stopMs = read(out() + "/pair-time.tsv").lines().skip(1).map(l -> l.split("\t")[5]).toList();
        assertThat(stopMs).hasSize(13);
        for (int pair = 1; pair <= 13; pair++) {
            boolean asked = pair == 8 || pair >= 11;
            assertThat(stopMs.get(pair - 1).equals("0.000")).as("pair %d asked: %s", pair, asked).isEqualTo(!asked);
        }
        assertThat(read(out() + "/head.input").lines().filter(l -> l.equals("write-result")))
                .as("the launchers write their results only for a question (not after the last fork: it ended)")
                .hasSize(3);
    }

    @Test
    void aLauncherOfAnotherProtocolIsRefusedOrDrivenItsOwnWay() throws Exception {
        Ended newer = run(Map.of("FAKE_HEAD_PROTOCOL", "9"), ".", ".", "--forks", "3", "--out", out());
        assertThat(newer.code()).isEqualTo(2);
        assertThat(newer.err().lines()).singleElement().asString()
                .contains("the head side's launcher speaks paced protocol 9; this jar knows 1 to 4");
        // a base from before the announcement whose Pacer has no write-result (this jar is no zip) gets go lines only
        Ended older = run(Map.of("FAKE_BASE_PROTOCOL", "none"), "continue: x", 0, ".", ".",
                "--precision", "2%", "--forks", "9", "--out", out() + "2");
        assertThat(older.code()).as(older.err()).isZero();
        assertThat(read(out() + "2/base.input").lines()).hasSize(9).containsOnly("go");
        assertThat(read(out() + "2/head.input")).contains("write-result");
    }

    @Test
    void sidesThatKnowTheOperatorPassGetOneBeforeEachPairUnlessTurnedOff() throws Exception {
        Map<String, String> both = Map.of("FAKE_BASE_PROTOCOL", "4", "FAKE_HEAD_PROTOCOL", "4");
        Ended e = run(both, ".", ".", "--forks", "3", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        for (String side : List.of("base", "head")) {
            assertThat(read(out() + "/" + side + ".input").lines())
                    .containsExactly("operator-pass 1", "go", "operator-pass 2", "go", "operator-pass 3", "go");
        }
        assertThat(read(out() + "/where.tsv").lines()).hasSize(7); // a header and one line per pass
        assertThat(e.out()).contains("[compare-commits] operator passes: 6 in ");

        run(both, ".", ".", "--forks", "4", "--where-every", "2", "--out", out() + "2");
        assertThat(read(out() + "2/head.input").lines()).containsExactly("operator-pass 1", "go", "go",
                "operator-pass 3", "go", "go");
        run(both, ".", ".", "--forks", "3", "--no-where", "--out", out() + "3");
        assertThat(read(out() + "3/head.input").lines()).containsOnly("go");
        // a side built before the pass gets none, and neither does the other: the passes are pairs or nothing
        Ended older = run(Map.of("FAKE_HEAD_PROTOCOL", "4"), ".", ".", "--forks", "3", "--out", out() + "4");
        assertThat(older.code()).as(older.err()).isZero();
        assertThat(read(out() + "4/head.input").lines()).containsOnly("go");
        assertThat(older.out()).contains("no operator passes: the base side's build predates them (paced protocol 3)");
        assertThat(run(both, ".", ".", "--where-every", "0", "--out", out() + "5").code()).isEqualTo(2);
    }

    /**
     * In turns both sides' forks of a pair are sent at once, each launcher told its side and the turns through the
     * barrier's property; the pair's coin names who leads the odd rounds, and the operator passes still come first.
     */
    @Test
    void inTurnsBothForksOfAPairGoTogetherWithTheBarrierAndTheCoinsLead() throws Exception {
        Map<String, String> both = Map.of("FAKE_BASE_PROTOCOL", "4", "FAKE_HEAD_PROTOCOL", "4");
        Ended e = run(both, ".", ".", "--turns", "--forks", "4", "--seed", "7", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        assertThat(e.out()).contains("[compare-commits] turns: both sides' forks of a pair at once");
        for (String side : List.of("base", "head")) {
            assertThat(read(out() + "/" + side + ".args"))
                    .contains("-jvmArgsAppend -Dinferbench.duet=" + out() + "/duet/now:" + side + ":turns")
                    .contains("-Djmh.ignoreLock=true");
            assertThat(read(out() + "/" + side + ".input").lines()).containsExactly("operator-pass 1", "go",
                    "operator-pass 2", "go", "operator-pass 3", "go", "operator-pass 4", "go");
        }
        String order = read(out() + "/pair-order.txt");
        assertThat(order.lines()).hasSize(5).first().isEqualTo("seed 7");
        assertThat(order.lines().skip(1)).allMatch(l -> l.matches("pair \\d: (base|head) leads the odd rounds"));
        assertThat(run(Map.of(), ".", ".", "--turns", "--duet", "--out", out() + "2").err().strip())
                .isEqualTo("inferbench: --duet and --turns are two ways to run a pair; give one");
        // --no-where stays off with --pin (the CPU check once overwrote the flag)
        Ended pinned = run(both, ".", ".", "--pin", "--no-where", "--forks", "3", "--out", out() + "3");
        assertThat(pinned.code()).as(pinned.err()).isZero();
        assertThat(read(out() + "3/head.input").lines()).containsOnly("go");
    }

    /** --keep-busy spins on CPUs apart from the pinned ones for the comparison, and its process ends with it. */
    @Test
    void keptBusyCpusAreApartFromThePinnedOnesAndEndWithTheComparison() throws Exception {
        assertThat(run(Map.of(), ".", ".", "--keep-busy", "0", "--out", out()).err().strip()).isEqualTo("inferbench:"
                + " --keep-busy needs --pin: the forks must run on other CPUs than the busy ones; expected e.g."
                + " --pin 1 --keep-busy 0");
        assertThat(run(Map.of(), ".", ".", "--pin", "0", "--keep-busy", "0", "--out", out()).err().strip())
                .isEqualTo("inferbench: --keep-busy 0 and --pin 0 share a CPU; expected CPUs apart, e.g. --pin 1"
                        + " --keep-busy 0");
        assertThat(run(Map.of(), ".", ".", "--pin", "0", "--keep-busy", "x", "--out", out()).err().strip())
                .isEqualTo("inferbench: --keep-busy 'x' is not a CPU list; expected e.g. 0, 0-1 or 0,2");
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "2 CPUs");
        Ended e = run(Map.of(), ".", ".", "--pin", "1", "--keep-busy", "0", "--forks", "3", "--out", out());
        assertThat(e.code()).as(e.err()).isZero();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[compare-commits\\] CPUs 0 kept busy for the"
                + " comparison \\(process (\\d+), counted as the comparison's own\\)").matcher(e.out());
        assertThat(m.find()).as(e.out()).isTrue();
        assertThat(ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
}
