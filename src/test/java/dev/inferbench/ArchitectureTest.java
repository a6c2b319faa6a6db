package dev.inferbench;

import dev.inferbench.tensor.TensorSpec;
import dev.inferbench.run.Plan;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers of docs/architecture.md: a package may use its own layer and the layers below it, never one above,
 * and no two packages use each other. The table there and {@link #LAYERS} are the same list, bottom first.
 */
class ArchitectureTest {
    /** Bottom first: name, then the packages of the layer. */
    static final String[][] LAYERS = {
            {"base", "dev.inferbench", "dev.inferbench.tensor..", "dev.inferbench.stats.."},
            {"model", "dev.inferbench.model.."},
            {"config", "dev.inferbench.config.."},
            {"input", "dev.inferbench.input.."},
            {"engine", "dev.inferbench.engine.."},
            {"variant", "dev.inferbench.variant.."},
            {"cell", "dev.inferbench.cell.."},
            {"measures", "dev.inferbench.quality..", "dev.inferbench.verify..", "dev.inferbench.pipeline..",
                    "dev.inferbench.metrics..", "dev.inferbench.serve.."},
            {"results", "dev.inferbench.results.."},
            {"run", "dev.inferbench.run.."},
            {"analysis", "dev.inferbench.compare..", "dev.inferbench.profile..", "dev.inferbench.report.."},
            {"prepare", "dev.inferbench.prepare.."},
            {"flow", "dev.inferbench.flow.."},
            {"cli", "dev.inferbench.cli.."},
            {"benchmarks", "dev.inferbench.bench.."},
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // main and benchmark classes (both in target/classes); tests may reach across layers
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.inferbench");
    }

    static LayeredArchitecture layers() {
        LayeredArchitecture arch = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String[] layer : LAYERS) {
            arch = arch.layer(layer[0]).definedBy(Arrays.copyOfRange(layer, 1, layer.length));
        }
        for (int i = 0; i < LAYERS.length - 1; i++) {
            List<String> above = new ArrayList<>();
            for (int j = i + 1; j < LAYERS.length; j++) {
                above.add(LAYERS[j][0]);
            }
            arch = arch.whereLayer(LAYERS[i][0]).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
        }
        return arch.whereLayer(LAYERS[LAYERS.length - 1][0]).mayNotBeAccessedByAnyLayer();
    }

    @Test
    void everyPackageIsInALayer() {
        List<String> outside = classes.stream().map(JavaClass::getPackageName).distinct()
                .filter(p -> Arrays.stream(LAYERS).noneMatch(l -> Arrays.stream(l).skip(1)
                        .anyMatch(d -> d.endsWith("..") ? (p + ".").startsWith(d.substring(0, d.length() - 1))
                                : p.equals(d))))
                .toList();
        assertThat(outside).as("packages that no layer of docs/architecture.md names").isEmpty();
    }

    @Test
    void dependenciesPointDown() {
        layers().check(classes);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("dev.inferbench.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** The rule has teeth: a class of a low layer that uses a higher one is reported, by name. */
    @Test
    void aLowerPackageUsingAHigherOneIsCaught() {
        JavaClasses withViolation = new ClassFileImporter().importClasses(
                TensorSpec.class, Plan.class, Probe.class);
        EvaluationResult result = layers().evaluate(withViolation);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(Probe.class.getName()).contains("dev.inferbench.run.Plan");
    }

    /** Stands for a model-layer class that reaches up into the run loop (compiled with the tests, so never shipped). */
    static final class Probe {
        int forks(Plan plan) {
            return plan.forks();
        }
    }
}
