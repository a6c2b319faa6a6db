package dev.inferbench.run;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailureFilterTest {
    private static final String TRACE = """
            dev.inferbench.bench.CellFailure: unknown device 'tpu'; expected one of: cpu, cuda, cuda:N
            \tat dev.inferbench.bench.InferenceBenchmark.load(InferenceBenchmark.java:80)
            \tat org.openjdk.jmh.runner.BenchmarkHandler.runIteration(BenchmarkHandler.java:437)
            Caused by: dev.inferbench.BenchException: unknown device 'tpu'; expected one of: cpu, cuda, cuda:N
            \tat dev.inferbench.engine.Device.parse(Device.java:30)""";

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private FailureFilter filter(boolean verbose) {
        return new FailureFilter(OutputFormatFactory.createFormatInstance(
                new PrintStream(console, true, StandardCharsets.UTF_8), VerboseMode.NORMAL), verbose);
    }

    private String console() {
        return console.toString(StandardCharsets.UTF_8);
    }

    private static void jmhReportsFailure(FailureFilter f) {
        f.println("<failure>");
        f.println("");
        f.println(TRACE);
        f.println("");
    }

    @Test
    void stackTraceBecomesOneLine() {
        FailureFilter f = filter(false);
        jmhReportsFailure(f);
        f.endRun(List.of());
        assertThat(f.failures()).singleElement()
                .extracting(FailureFilter.Failure::reason)
                .isEqualTo("unknown device 'tpu'; expected one of: cpu, cuda, cuda:N");
        assertThat(console()).contains("<failure>").contains("  unknown device 'tpu'")
                .doesNotContain("\tat ").doesNotContain("Caused by");
    }

    @Test
    void verboseKeepsTheTrace() {
        FailureFilter f = filter(true);
        jmhReportsFailure(f);
        assertThat(f.failures()).hasSize(1);
        assertThat(console()).contains("\tat dev.inferbench.bench.InferenceBenchmark.load").contains("Caused by");
    }

    @Test
    void oneCellIsOneFailureHoweverOftenReported() {
        FailureFilter f = filter(false);
        jmhReportsFailure(f);
        f.println("<forked VM failed with exit code 1>");
        jmhReportsFailure(f);
        assertThat(f.failures()).hasSize(1);
    }

    @Test
    void crashedForkIsAFailureAndItsTailsStay() {
        FailureFilter f = filter(false);
        f.println("<forked VM failed with exit code 137>");
        f.println("<stdout last='20 lines'>");
        f.println("</stdout>");
        assertThat(f.failures()).singleElement().extracting(FailureFilter.Failure::reason)
                .isEqualTo("forked VM failed with exit code 137");
        assertThat(console()).contains("<stdout last='20 lines'>");
    }

    @Test
    void normalOutputPassesThrough() {
        FailureFilter f = filter(false);
        f.println("Iteration   1: 20.1 ms/op");
        f.print("partial");
        assertThat(f.failures()).isEmpty();
        assertThat(console()).contains("Iteration   1: 20.1 ms/op").contains("partial");
    }

    @Test
    void classNamePrefixIsDropped() {
        assertThat(FailureFilter.withoutClassName("java.lang.IllegalStateException: boom")).isEqualTo("boom");
        assertThat(FailureFilter.withoutClassName("model 'x': not found")).isEqualTo("model 'x': not found");
    }
}
