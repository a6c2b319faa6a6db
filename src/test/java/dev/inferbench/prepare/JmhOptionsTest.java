package dev.inferbench.prepare;

import dev.inferbench.metrics.TrainingProfiler;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.generate.GenerationProfiler;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.metrics.CallMeanProfiler;
import dev.inferbench.metrics.SamplesProfiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class JmhOptionsTest {
    private static final String CONFIG = String.join("\n",
            "run.include=InferenceBenchmark", "run.forks=5", "run.warmupIterations=1", "run.warmupTime=2s",
            "run.iterations=10", "run.time=2s", "param.model=resnet50", "param.batchSize=1,8",
            "model.resnet50.zoo=resnet50", "");

    @Test
    void commandLineWinsAndPropertiesFillTheRest() throws Exception {
        BenchConfig config = BenchConfig.parse(CONFIG);
        CommandLineOptions cmd = new CommandLineOptions("-f", "1", "-r", "500ms", "-p", "batchSize=2,4");
        Options o = JmhOptions.options(cmd, config).build();

        assertThat(o.getForkCount().get()).isEqualTo(1);
        assertThat(o.getMeasurementTime().get()).isEqualTo(TimeValue.milliseconds(500));
        assertThat(o.getMeasurementIterations().get()).isEqualTo(10);
        assertThat(o.getWarmupIterations().get()).isEqualTo(1);
        assertThat(o.getWarmupTime().get()).isEqualTo(TimeValue.seconds(2));
        assertThat(o.getParameter("batchSize").get()).containsExactly("2", "4");
        assertThat(o.getParameter("model").get()).containsExactly("resnet50");
        assertThat(o.getIncludes()).containsExactly("InferenceBenchmark");
        assertThat(o.getProfilers()).anySatisfy(p -> assertThat(p.getKlass()).isEqualTo(SamplesProfiler.class.getName()));
        // the run loop sets each fork's own result file; the run's options name none
        assertThat(o.getResult().hasValue()).isFalse();
    }

    /** A planted lateness the forks could not read is refused before any fork, in one line; a good one passes. */
    @Test
    void aHeldArrivalsPlantIsCheckedBeforeAnyFork() throws Exception {
        BenchConfig config = BenchConfig.parse(CONFIG);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JmhOptions.options(new CommandLineOptions(
                "-jvmArgsAppend", "-Dinferbench.stub=call=4ms -Dinferbench.heldArrivals=3ms"), config))
                .isInstanceOf(dev.inferbench.BenchException.class)
                .hasMessage("-Dinferbench.heldArrivals=3ms: expected a delay and every how many requests, e.g."
                        + " 3ms/200 (every 200th request issued 3 ms after its time)");
        assertThat(JmhOptions.options(new CommandLineOptions("-jvmArgsAppend",
                "-Dinferbench.stub=call=4ms -Dinferbench.heldArrivals=3ms/200"), config).build()).isNotNull();
    }

    @Test
    void userRegexReplacesTheDefaultOne() throws Exception {
        Options o = JmhOptions.options(new CommandLineOptions("Cold"), BenchConfig.parse(CONFIG)).build();
        assertThat(o.getIncludes()).containsExactly("Cold");
        assertThat(o.getResult().hasValue()).isFalse();
    }

    /**
     * The run.* iteration defaults stay off only when every benchmark the patterns select is ColdStartBenchmark:
     * a regex that names ColdStart but also selects InferenceBenchmark keeps them.
     */
    @Test
    void iterationDefaultsAreDroppedOnlyWhenEverySelectedBenchmarkIsColdStart() throws Exception {
        BenchConfig config = BenchConfig.parse(CONFIG);
        for (String[] coldOnly : new String[][]{{"ColdStart"}, {"ColdStartBenchmark.firstResult"},
                {"ColdStart|Inference", "-e", "Inference"}}) {
            Options o = JmhOptions.options(new CommandLineOptions(coldOnly), config).build();
            assertThat(o.getMeasurementIterations().hasValue()).as(String.join(" ", coldOnly)).isFalse();
            assertThat(o.getWarmupIterations().hasValue()).as(String.join(" ", coldOnly)).isFalse();
        }
        for (String[] mixed : new String[][]{{"ColdStart|Inference"}, {"ColdStart", "Inference"}, {"Benchmark"}}) {
            Options o = JmhOptions.options(new CommandLineOptions(mixed), config).build();
            assertThat(o.getMeasurementIterations().orElse(null)).as(String.join(" ", mixed)).isEqualTo(10);
            assertThat(o.getWarmupTime().orElse(null)).as(String.join(" ", mixed)).isEqualTo(TimeValue.seconds(2));
        }
        BenchConfig coldByDefault = BenchConfig.parse(CONFIG.replace("run.include=InferenceBenchmark",
                "run.include=dev.inferbench.bench.ColdStartBenchmark"));
        assertThat(JmhOptions.options(new CommandLineOptions(), coldByDefault).build().getMeasurementIterations()
                .hasValue()).isFalse();
    }

    @Test
    void forksAreToldWhichConfigFileToRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("b.properties");
        Files.writeString(file, CONFIG);
        Options o = JmhOptions.options(new CommandLineOptions("-jvmArgsAppend", "-Xmx2g"), BenchConfig.fromFile(file))
                .build();
        assertThat(o.getJvmArgsAppend().get())
                .containsExactly("-Xmx2g", "-Dinferbench.config=" + file.toAbsolutePath());
    }

    /** Every cell gets gc.alloc.rate.norm; a user's own -prof gc (with its options) is not doubled. */
    @Test
    void theGcProfilerIsAlwaysThereOnce() throws Exception {
        BenchConfig config = BenchConfig.parse(CONFIG);
        Options plain = JmhOptions.options(new CommandLineOptions(), config).build();
        assertThat(plain.getProfilers()).filteredOn(p -> p.getKlass().endsWith("GCProfiler")).hasSize(1);
        Options own = JmhOptions.options(new CommandLineOptions("-prof", "gc"), config).build();
        assertThat(own.getProfilers()).filteredOn(p -> p.getKlass().equals("gc") || p.getKlass().endsWith("GCProfiler"))
                .hasSize(1);
    }

    /**
     * The diagnostic switch leaves time, samples/s, the all-calls mean and a serving cell's own figures only, to show
     * the other metrics do not move the latency.
     */
    @Test
    void extraMetricsCanBeSwitchedOff() throws Exception {
        System.setProperty(JmhOptions.EXTRA_METRICS, "false");
        try {
            Options o = JmhOptions.options(new CommandLineOptions(), BenchConfig.parse(CONFIG)).build();
            assertThat(o.getProfilers()).extracting(p -> p.getKlass())
                    .containsExactly(SamplesProfiler.class.getName(), CallMeanProfiler.class.getName(),
                            ServingProfiler.class.getName(), TrainingProfiler.class.getName(),
                            GenerationProfiler.class.getName());
        } finally {
            System.clearProperty(JmhOptions.EXTRA_METRICS);
        }
        assertThat(JmhOptions.options(new CommandLineOptions(), BenchConfig.parse(CONFIG)).build().getProfilers())
                .hasSize(14);
    }
}
