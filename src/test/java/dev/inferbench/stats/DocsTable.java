package dev.inferbench.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The tables docs/statistics.md shows between {@code <!-- Name: begin -->} and {@code <!-- Name: end -->}. */
final class DocsTable {
    private DocsTable() {
    }

    /** The text between the markers named {@code name}, stripped; fails when the docs lack them. */
    static String shown(String name) throws IOException {
        String docs = Files.readString(Path.of("docs/statistics.md"), StandardCharsets.UTF_8);
        String begin = "<!-- " + name + ": begin -->\n";
        String end = "<!-- " + name + ": end -->";
        assertThat(docs).as("docs/statistics.md holds the table between its markers").contains(begin).contains(end);
        return docs.substring(docs.indexOf(begin) + begin.length(), docs.indexOf(end)).strip();
    }
}
