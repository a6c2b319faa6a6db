package dev.inferbench.cli;

import dev.inferbench.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The report subcommand: bad input is one line and exit 2; a good run folder gets its report/ folder. */
class ReportCommandTest {
    @TempDir
    Path dir;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int report(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "report";
        System.arraycopy(args, 0, argv, 1, args.length);
        return new Main(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(argv);
    }

    private String errLine() {
        String e = err.toString(StandardCharsets.UTF_8);
        assertThat(e.lines()).hasSize(1);
        return e.strip();
    }

    private Path run(String json) throws Exception {
        Path run = Files.createDirectories(dir.resolve("run-" + Integer.toHexString(json.hashCode())));
        Files.writeString(run.resolve("jmh-result.json"), json);
        return run;
    }

    @Test
    void missingFolder() {
        assertThat(report(dir.resolve("nope").toString())).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).startsWith("inferbench: result file not found: ").contains("nope");
    }

    @Test
    void emptyFile() throws Exception {
        assertThat(report(run("").toString())).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).endsWith("is empty; expected a JMH result file (a JSON array of benchmarks)");
    }

    @Test
    void truncatedFile() throws Exception {
        String whole = Files.readString(ReportsTestFiles.runA().resolve("jmh-result.json"));
        assertThat(report(run(whole.substring(0, whole.length() / 2)).toString())).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).contains("is not valid JSON").endsWith("expected a JMH result file, complete");
    }

    @Test
    void notJmh() throws Exception {
        assertThat(report(run("{\"hello\": 1}").toString())).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).contains("is not a JMH result file");
    }

    @Test
    void malformedRunPropertiesIsOneLine() throws Exception {
        Path run = run(Files.readString(ReportsTestFiles.runA().resolve("jmh-result.json")));
        Files.writeString(run.resolve("run.properties"), "args=-p model=\\u12x4\n");
        assertThat(report(run.toString(), "--format", "md")).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).isEqualTo("inferbench: " + run.resolve("run.properties") + " is not a valid properties file"
                + " (Malformed \\uxxxx encoding.); expected the run settings written at the start of the run");
    }

    @Test
    void unknownFormatAndOption() throws Exception {
        Path good = ReportsTestFiles.runA();
        assertThat(report(good.toString(), "--format", "md,xml")).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).isEqualTo("inferbench: unknown report format 'xml'; expected one of: md, html, csv, gab, bmf, jmh, plots");
        err.reset();
        assertThat(report(good.toString(), "--bogus")).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).startsWith("inferbench: unknown option '--bogus' for report");
        err.reset();
        assertThat(report()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(errLine()).startsWith("inferbench: report needs a run folder");
    }

    @Test
    void writesIntoTheRunFolderByDefault() throws Exception {
        Path run = Files.createDirectories(dir.resolve("20261122-170000-abc"));
        Files.copy(ReportsTestFiles.runA().resolve("jmh-result.json"), run.resolve("jmh-result.json"));
        assertThat(report(run.toString(), "--format", "md,csv")).isEqualTo(ExitCode.OK);
        assertThat(run.resolve("report/report.md")).exists();
        assertThat(run.resolve("report/report.csv")).exists();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("(2 files)");
    }

    @Test
    void resultFileGetsAReportFolderBesideIt() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("downloads"));
        Path file = Files.copy(ReportsTestFiles.runA().resolve("jmh-result.json"), folder.resolve("some.json"));
        assertThat(report(file.toString(), "--format", "md")).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(ExitCode.OK);
        assertThat(folder.resolve("report/report.md")).isNotEmptyFile();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains(folder.resolve("report").toString());
    }

    @Test
    void unwritableOutput() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        // a path through a file: the file system refuses, which is no bad input
        assertThat(report(ReportsTestFiles.runA().toString(), "-o", file.resolve("sub").toString(), "--format", "md"))
                .isEqualTo(ExitCode.IO_FAILURE);
        assertThat(errLine()).startsWith("inferbench: cannot write the report to ");
    }

    /** The fixture run folder of the report tests. */
    static final class ReportsTestFiles {
        static Path runA() throws Exception {
            return Path.of(ReportCommandTest.class.getResource("/report/run-a").toURI());
        }
    }
}
