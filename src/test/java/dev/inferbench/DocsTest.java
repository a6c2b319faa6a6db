package dev.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and docs as a reader meets them: every relative link reaches a file and, with an anchor, a heading of
 * it (GitHub's anchors); the README fits its promise (at most 100 lines, none over 120 characters, the two commands
 * on the first screen); no docs page runs 200 lines without a heading; the user pages teach without lab notes (the
 * measurements behind their claims live in docs/evidence/, with the machine and the date of their run).
 */
class DocsTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final int FIRST_SCREEN = 25;
    /**
     * What a lab notebook says and a user page must not: the machine a figure came from (this machine, a "2-core" VM,
     * "on 2 cores"), when it ran (an ISO date, a month and day, a clock time, a dated anchor), the commit it ran at (a
     * commit id, "over 12 commits"), how many runs it took ("in 38 of 40 runs", "ran 120 comparisons", "3 proof runs"),
     * the run folder only its author has, the issue that asked for it. A user page states the condition instead ("a
     * machine with few cores") and links the measurement in docs/evidence/. A quoted program message may say "this
     * machine" (the program speaks of the machine it runs on), so code spans and fenced blocks are not read.
     */
    private static final Pattern LAB_NOTE = Pattern.compile(String.join("|",
            "\\bthis\\s+(?:machine|VM)\\b",
            // a clock time: 20:30 UTC, 16:07:01
            "\\b\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?\\s*(?:UTC|GMT)\\b|\\bT?\\d{2}:\\d{2}:\\d{2}\\b",
            "\\bresults/20\\d\\d",
            "\\bissues?\\s+\\d+",
            // the machine by its cores: a 2-core VM, 2-CPU, dual-core, on 2 cores (0.25 cores of a metric is not one)
            "(?<![\\d.,])\\b\\d+-(?:core|cpu|vcpu)s?\\b|\\b(?:single|dual|quad|two|four)-core\\b",
            "\\bon\\s+(?:the\\s+|its\\s+|only\\s+)?\\d+\\s+(?:cores|CPUs|vCPUs)\\b",
            // a date: 2026-11-30 (in a heading's anchor too), Nov 30, November 2026
            "\\b20\\d\\d-[01]\\d-[0-3]\\d\\b",
            "(?-i:\\b(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?"
                    + "|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?\\s+(?:[0-3]?\\d|20\\d\\d)\\b)",
            // a commit id: 7-40 lowercase hex digits, at least one letter and one digit (not #a0b1c2, 0x7fffffff)
            "(?-i:(?<![#\\w])(?=[0-9a-f]{0,39}[a-f])(?=[0-9a-f]{0,39}\\d)[0-9a-f]{7,40}(?!\\w))",
            "\\b\\d+\\s+commits\\b",
            // a tally of runs: in 38 of 40 runs, none of 8 A/A comparisons, ran 120 comparisons, 3 proof runs
            "\\b(?:\\d+|none|all|each)\\s+of\\s+(?:the\\s+|its\\s+)?\\d[\\d,]*\\s+(?:[\\w/+%-]+\\s+){0,2}?"
                    + "(?:runs|comparisons|trials|tries|attempts|repeats|repetitions)\\b",
            "\\b(?:ran|over|across|after)\\s+\\d[\\d,]*\\s+(?:[\\w/+%-]+\\s+){0,2}?(?:runs|comparisons|trials|repeats)\\b",
            "\\bproof\\s+runs?\\b"), Pattern.CASE_INSENSITIVE);

    @Test
    void everyRelativeLinkReachesItsFileAndHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto: ...: not ours to check offline
                }
                String[] parts = target.split("#", 2);
                Path file = parts[0].isEmpty() ? page : page.toAbsolutePath().getParent().resolve(parts[0]).normalize();
                if (!Files.exists(file)) {
                    broken.add(page + ": " + target + " (no such file)");
                } else if (parts.length == 2 && file.toString().endsWith(".md") && !anchors(file).contains(parts[1])) {
                    broken.add(page + ": " + target + " (no such heading in " + file + ")");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void anchorsAreGitHubs() {
        assertThat(slug("GPUs: `-p device=cuda`, `cuda:N`")).isEqualTo("gpus--p-devicecuda-cudan");
        assertThat(slug("Gates and exit codes")).isEqualTo("gates-and-exit-codes");
        assertThat(slug("Paired analysis: what interleaving pays for")).isEqualTo("paired-analysis-what-interleaving-pays-for");
    }

    @Test
    void theReadmeIsShortWithTheTwoCommandsFirst() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"), StandardCharsets.UTF_8);
        assertThat(lines).hasSizeLessThanOrEqualTo(100);
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(120));
        List<String> first = lines.subList(0, FIRST_SCREEN);
        assertThat(first).anySatisfy(l -> assertThat(l).contains("mvn -q package -DskipTests && java -jar target/benchmarks.jar"));
        assertThat(first).anySatisfy(l -> assertThat(l.strip()).isEqualTo("mvn -q verify"));
    }

    @Test
    void noDocsPageRuns200LinesWithoutAHeading() throws IOException {
        for (Path page : pages()) {
            int since = 0;
            boolean fenced = false;
            for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
                fenced ^= line.startsWith("```");
                since = !fenced && line.startsWith("#") ? 0 : since + 1;
                assertThat(since).as(page + ": lines without a heading").isLessThanOrEqualTo(200);
            }
        }
    }

    @Test
    void userPagesTeachWithoutLabNotes() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path page : userPages()) {
            found.addAll(labNotes(page.toString(), Files.readAllLines(page, StandardCharsets.UTF_8)));
        }
        assertThat(found).as("lab notes on user pages (the measurement goes to docs/evidence/, one sentence and a link"
                + " stay)").isEmpty();
    }

    @Test
    void labNotesAreFoundOutsideCodeOnly() {
        List<String> page = List.of(
                "# A page",                                                   // 1
                "Measured on this machine: 5 ms.",                            // 2
                "The message `no NVIDIA GPU on this machine` is quoted.",     // 3
                "A message split over lines `device 'cuda:9' does not",       // 4
                "exist; this machine has 1 GPU(s)` is quoted too.",           // 5
                "Run at 20:30 UTC, see results/20261125-211908-ac0d6a2.",    // 6
                "```",                                                        // 7
                "$ java -jar target/benchmarks.jar   # on this VM",          // 8
                "```",                                                        // 9
                "Since issue 24 the pairs are read, as this",                 // 10
                "VM showed.");                                                // 11
        assertThat(labNotes("p.md", page)).containsExactly("p.md:2: this machine", "p.md:6: 20:30 UTC",
                "p.md:6: results/2026", "p.md:6: ac0d6a2", "p.md:10: issue 24", "p.md:10: this\\nVM");
    }

    @Test
    void eachKindOfLabNoteIsFound() {
        Map<String, String> notes = new LinkedHashMap<>();
        notes.put("A run on a 2-core VM read 20 ms.", "2-core");
        notes.put("Forks pinned to a 2-CPU half of the machine.", "2-CPU");
        notes.put("On 2 cores the canary need not slow down.", "On 2 cores");
        notes.put("Measured on a dual-core laptop.", "dual-core");
        notes.put("The proof of 2026-11-28 read 1.03.", "2026-11-28");
        notes.put("See [the proof](evidence/p.md#turns-2026-11-28).", "2026-11-28");
        notes.put("Run on Nov 30, it read 1.03.", "Nov 30");
        notes.put("The ledger of November 2026.", "November 2026");
        notes.put("Its forks started at 16:07:01 and ended later.", "16:07:01");
        notes.put("The pass began at 9:05 GMT.", "9:05 GMT");
        notes.put("Counted since commit 77dc9c8 only.", "77dc9c8");
        notes.put("Measured over ab12cd3..HEAD in turns.", "ab12cd3");
        notes.put("The regression was found over 12 commits.", "12 commits");
        notes.put("It failed in 38 of 40 runs.", "38 of 40 runs");
        notes.put("None of 8 A/A comparisons failed.", "None of 8 A/A comparisons");
        notes.put("7 of 8 +3 % comparisons failed the gate.", "7 of 8 +3 % comparisons");
        notes.put("The ledger ran 120 comparisons.", "ran 120 comparisons");
        notes.put("Three proof runs agreed.", "proof runs");
        notes.forEach((sentence, marker) -> assertThat(labNotes("p.md", List.of(sentence))).as(sentence)
                .containsExactly("p.md:1: " + marker));
    }

    @Test
    void teachingProseIsNoLabNote() {
        List<String> prose = List.of(
                "`--pin` measures better on a machine with 4 cores or more; on a small shared VM it does not.",
                "A fork is disturbed when other processes used 0.25 cores or more above their median.",
                "Each fork runs pinned to CPU 0 or CPU 1, and the summary says fork 3 of 16.",
                "The colour #a0b1c2 marks a faster row, 0x7fffffff is the largest int, 1234567 a number.",
                "An A/A comparison of two commits built from one source; deadbeef is a word, fp16 a precision.",
                "It prints the count that failed with its exact bound (0 of 60 bounds the rate at 4.9 %).",
                "A warm-up of 2 x 1 s, then 16 forks of 2 iterations; a run of 1,887 ms in 5 forks.",
                "n commits take at most ceil(log2 n) + 1 comparisons; the time is 20 ms at p99.",
                "Run the proof with `power-ledger --two-builds HEAD` on your runner, with no other job on it.",
                "You may 2x the budget; the report runs at 12:30 each day, set in cron.");
        assertThat(labNotes("p.md", prose)).isEmpty();
    }

    /**
     * The lab-note markers of a page as "file:line: marker", outside fenced blocks and code spans; a paragraph is read
     * as one text, so a marker broken over two lines is found at its first line.
     */
    static List<String> labNotes(String file, List<String> lines) {
        List<String> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        List<Integer> lineOf = new ArrayList<>();
        boolean fenced = false;
        boolean code = false;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            boolean fence = line.strip().startsWith("```");
            if (fence || fenced || line.isBlank()) {
                scan(file, text, lineOf, out);
                code = false;
                fenced ^= fence;
                continue;
            }
            for (char c : line.toCharArray()) {
                if (c == '`') {
                    code = !code;
                } else if (!code) {
                    text.append(c);
                    lineOf.add(i + 1);
                }
            }
            text.append('\n');
            lineOf.add(i + 1);
        }
        return out;
    }

    private static void scan(String file, StringBuilder text, List<Integer> lineOf, List<String> out) {
        Matcher m = LAB_NOTE.matcher(text);
        while (m.find()) {
            out.add(file + ":" + lineOf.get(m.start()) + ": " + m.group().replace("\n", "\\n"));
        }
        text.setLength(0);
        lineOf.clear();
    }

    /** The READMEs and docs/*.md: the pages a user reads, docs/evidence/ apart. */
    private static List<Path> userPages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("models/README.md"),
                Path.of("results/README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("models/README.md"),
                Path.of("results/README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The link targets of a page, outside fenced code blocks. */
    private static List<String> links(Path page) throws IOException {
        List<String> out = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            fenced ^= line.startsWith("```");
            Matcher m = LINK.matcher(line);
            while (!fenced && m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The anchors GitHub gives a page's headings, a repeated heading numbered -1, -2 ... */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            fenced ^= line.startsWith("```");
            if (!fenced && line.matches("^#{1,6} .*")) {
                String s = slug(line.replaceFirst("^#+ ", ""));
                int n = seen.merge(s, 1, Integer::sum) - 1;
                out.add(n == 0 ? s : s + "-" + n);
            }
        }
        return out;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1"); // a link in a heading: its text
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}
