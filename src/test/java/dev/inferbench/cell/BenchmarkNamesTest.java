package dev.inferbench.cell;

import dev.inferbench.run.JmhDriver;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.runner.BenchmarkListEntry;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Every benchmark name library code spells is a real benchmark of src/jmh, for JMH and for the compiler alike. */
class BenchmarkNamesTest {

    /** The constants' values that name a benchmark class or method (all but the package itself). */
    static List<String> names() throws IllegalAccessException {
        List<String> names = new ArrayList<>();
        for (Field f : BenchmarkNames.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && Modifier.isPublic(f.getModifiers())) {
                String v = (String) f.get(null);
                if (!v.equals(BenchmarkNames.PACKAGE)) {
                    names.add(v);
                }
            }
        }
        return names;
    }

    @Test
    void everyNameIsInJmhsBenchmarkList() throws Exception {
        // the list JMH's annotation processor wrote for the jar: what a run's -l shows and a plan is made from
        Set<BenchmarkListEntry> all = JmhDriver.select(List.of(".*"), List.of());
        Set<String> classes = all.stream().map(BenchmarkListEntry::getUserClassQName).collect(Collectors.toSet());
        Set<String> methods = all.stream().map(BenchmarkListEntry::getUsername).collect(Collectors.toSet());
        assertThat(names()).hasSizeGreaterThanOrEqualTo(6)
                .allSatisfy(n -> assertThat(classes.contains(n) || methods.contains(n))
                        .as("%s in JMH's benchmark list", n).isTrue());
    }

    @Test
    void everyNameIsAnAnnotatedBenchmark() throws Exception {
        for (String name : names()) {
            Class<?> cls;
            String method = null;
            try {
                cls = Class.forName(name);
            } catch (ClassNotFoundException notAClass) {
                int dot = name.lastIndexOf('.');
                cls = Class.forName(name.substring(0, dot));
                method = name.substring(dot + 1);
            }
            String wanted = method;
            List<Method> benchmarks = Arrays.stream(cls.getMethods()).filter(m -> m.isAnnotationPresent(Benchmark.class))
                    .filter(m -> wanted == null || m.getName().equals(wanted)).toList();
            assertThat(benchmarks).as("@Benchmark methods for %s", name).isNotEmpty();
        }
    }

    @Test
    void namesMatchFullAndShortForms() {
        String full = BenchmarkNames.INFERENCE_INFER;
        assertThat(BenchmarkNames.isMethod(full, BenchmarkNames.INFERENCE_INFER)).isTrue();
        assertThat(BenchmarkNames.isMethod("InferenceBenchmark.infer [avgt]", BenchmarkNames.INFERENCE_INFER)).isTrue();
        assertThat(BenchmarkNames.isMethod("InferenceBenchmark.inferAll", BenchmarkNames.INFERENCE_INFER)).isFalse();
        assertThat(BenchmarkNames.inClass("EndToEndBenchmark.request", BenchmarkNames.END_TO_END)).isTrue();
        assertThat(BenchmarkNames.inClass(full, BenchmarkNames.END_TO_END)).isFalse();
        assertThat(BenchmarkNames.inClass(BenchmarkNames.TRAINING + ".step", BenchmarkNames.TRAINING)).isTrue();
        assertThat(BenchmarkNames.inClass("TrainingBenchmarkX.step", BenchmarkNames.TRAINING)).isFalse();
    }
}
