package dev.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
 * on the first screen); no docs page runs 200 lines without a heading.
 */
class DocsTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final int FIRST_SCREEN = 25;

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

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("models/README.md"),
                Path.of("results/README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
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
