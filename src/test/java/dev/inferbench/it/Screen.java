package dev.inferbench.it;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a newcomer sees of a run on the terminal: it ends 0, fits two screens, prints no NaN, and its closing lines
 * name only files that exist. The README's examples are checked with it wherever the suite runs them.
 */
final class Screen {
    /** Two screens of a terminal. */
    static final int TWO_SCREENS = 100;
    /** A run folder's path or a file in it, as the closing lines print them. */
    private static final Pattern PATH = Pattern.compile("(results/[^\\s;,()]+)");

    private Screen() {
    }

    /** The run's lines, once it has ended 0 within two screens and without a NaN. */
    static List<String> fitsTwoScreens(Jar.Run r) {
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.size()).as(r.out()).isLessThanOrEqualTo(TWO_SCREENS);
        assertThat(r.out()).doesNotContain("NaN");
        return lines;
    }

    /** Every path the closing lines (those after the summary) print exists, relative to {@code cwd}. */
    static void closingLinesNameFilesThatExist(Path cwd, List<String> lines) {
        int summary = lines.indexOf(lines.stream().filter(l -> l.startsWith("inferbench summary")).findFirst()
                .orElseThrow());
        List<String> paths = new ArrayList<>();
        for (String line : lines.subList(summary, lines.size())) {
            Matcher m = PATH.matcher(line);
            while (m.find()) {
                paths.add(m.group(1));
            }
        }
        assertThat(paths).as(String.join("\n", lines)).isNotEmpty();
        for (String p : paths) {
            assertThat(cwd.resolve(p)).as(p).exists();
        }
    }
}
