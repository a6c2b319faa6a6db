package dev.inferbench;

import dev.inferbench.calibration.Checks;
import dev.inferbench.plant.Plant;
import dev.inferbench.model.CycleProbe;
import dev.inferbench.model.Graph;
import dev.inferbench.model.stats.CycleProbeBack;
import dev.inferbench.run.Plan;
import dev.inferbench.tensor.TensorSpec;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers of docs/architecture.md: a package may use its own layer and the layers below it, never one above,
 * and no two packages use each other. The layers are read from the doc's table (top first), so the doc is the rule
 * and cannot drift from it.
 */
class ArchitectureTest {
    static final Path DOC = Path.of("docs/architecture.md");
    private static final String ROOT = "dev.inferbench";
    private static final Pattern NAME = Pattern.compile("`([a-z_.]+)`");

    /** A layer of the doc's table: its name and its packages, each one package exactly. */
    record Layer(String name, List<String> packages) {
    }

    private static JavaClasses classes;
    private static List<Layer> layers;

    @BeforeAll
    static void importClasses() throws IOException {
        // main and benchmark classes (both in target/classes); tests may reach across layers
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
        layers = layers(Files.readString(DOC, StandardCharsets.UTF_8));
    }

    /** The table under "| layer | packages", bottom first; `x` in its packages column is dev.inferbench.x. */
    static List<Layer> layers(String doc) {
        List<Layer> top = new ArrayList<>();
        boolean inTable = false;
        for (String line : doc.lines().toList()) {
            if (line.startsWith("| layer | packages")) {
                inTable = true;
            } else if (inTable && line.startsWith("|---")) {
                continue;
            } else if (inTable && line.startsWith("| ")) {
                String[] cols = line.split("\\|");
                List<String> packages = new ArrayList<>();
                Matcher m = NAME.matcher(cols[2]);
                while (m.find()) {
                    packages.add(m.group(1).equals(ROOT) ? ROOT : ROOT + "." + m.group(1));
                }
                top.add(new Layer(cols[1].strip(), List.copyOf(packages)));
            } else if (inTable) {
                break;
            }
        }
        List<Layer> bottom = new ArrayList<>(top);
        Collections.reverse(bottom);
        return bottom;
    }

    static LayeredArchitecture layered(List<Layer> layers) {
        LayeredArchitecture arch = layeredArchitecture().consideringOnlyDependenciesInLayers().withOptionalLayers(true);
        for (Layer layer : layers) {
            arch = arch.layer(layer.name()).definedBy(layer.packages().toArray(String[]::new));
        }
        for (int i = 0; i < layers.size() - 1; i++) {
            List<String> above = layers.subList(i + 1, layers.size()).stream().map(Layer::name).toList();
            arch = arch.whereLayer(layers.get(i).name()).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
        }
        return arch.whereLayer(layers.get(layers.size() - 1).name()).mayNotBeAccessedByAnyLayer();
    }

    /** Every package its own slice, sub-packages included: model and model.stats may not use each other. */
    static ArchRule noCycles() {
        return slices().matching(ROOT + ".(**)").should().beFreeOfCycles();
    }

    @Test
    void theDocHasTheTable() {
        assertThat(layers).extracting(Layer::name).startsWith("base").endsWith("benchmarks").doesNotHaveDuplicates();
        assertThat(layers).allSatisfy(l -> assertThat(l.packages()).as("packages of layer %s", l.name()).isNotEmpty());
    }

    @Test
    void everyPackageIsInALayer() {
        Set<String> named = new TreeSet<>();
        layers.forEach(l -> named.addAll(l.packages()));
        Set<String> real = new TreeSet<>(classes.stream().map(JavaClass::getPackageName).toList());
        assertThat(real).as("packages that no layer of docs/architecture.md names").isSubsetOf(named);
        assertThat(named).as("packages docs/architecture.md names that have no class").isSubsetOf(real);
    }

    @Test
    void dependenciesPointDown() {
        layered(layers).check(classes);
    }

    @Test
    void noCyclesBetweenPackages() {
        noCycles().check(classes);
    }

    /** The layer rule has teeth: a class of a low layer that uses a higher one is reported, by name. */
    @Test
    void aLowerPackageUsingAHigherOneIsCaught() {
        LayeredArchitecture rule = layered(layers);
        assertThat(rule.evaluate(new ClassFileImporter().importClasses(TensorSpec.class, Plan.class)).hasViolation())
                .as("the same classes without the probe").isFalse();
        EvaluationResult result = rule.evaluate(new ClassFileImporter().importClasses(TensorSpec.class, Plan.class,
                Probe.class));
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(Probe.class.getName()).contains(Plan.class.getName());
    }

    /** The cycle rule has teeth below the top level: model and model.stats using each other is reported. */
    @Test
    void aCycleBetweenSubPackagesIsCaught() {
        assertThat(noCycles().evaluate(new ClassFileImporter().importClasses(CycleProbe.class, Graph.class))
                .hasViolation()).as("model alone").isFalse();
        EvaluationResult result = noCycles().evaluate(new ClassFileImporter().importClasses(CycleProbe.class,
                CycleProbeBack.class));
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("model").contains("model.stats");
    }

    /** A table that leaves a package out is a failing table, not a smaller rule. */
    @Test
    void aTableWithoutAPackageLosesIt() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8).replace("| `run` |", "| |");
        List<Layer> fewer = layers(doc);
        assertThat(fewer).filteredOn(l -> l.name().equals("run")).singleElement()
                .satisfies(l -> assertThat(l.packages()).isEmpty());
        assertThat(layers).filteredOn(l -> l.name().equals("run")).singleElement()
                .satisfies(l -> assertThat(l.packages()).containsExactly(ROOT + ".run"));
    }

    /** Who may use the calibration (the planted-truth table and the one-JVM checks): the command and the checks' JVM. */
    static final List<String> CALIBRATION_USERS = List.of(ROOT + ".cli.CalibrateCommand");
    /**
     * Who may read the plants: each place a user selects one (the stub engine, {@code -p engine=stub}; the open loop's
     * issue, {@code -Dinferbench.heldArrivals}; the measured call, {@code -Dinferbench.slowdown}; the busy neighbour
     * of chosen forks, {@code -Dinferbench.busyForks}, started in InferenceBenchmark's setup; the check of the forks'
     * JVM arguments before the first fork; the stub's line in a fork's console).
     */
    static final List<String> PLANT_READERS = List.of(ROOT + ".engine.StubEngine", ROOT + ".engine.StubDecoder",
            ROOT + ".serve.OpenLoop", ROOT + ".serve.Schedule", ROOT + ".bench.InferenceBenchmark",
            ROOT + ".bench.Callers", ROOT + ".prepare.JmhOptions");

    /** No class outside the calibration's packages uses {@code pkg}, but {@code allowed} (and their nested classes). */
    static ArchRule onlyUse(String pkg, List<String> allowed) {
        DescribedPredicate<JavaClass> listed = DescribedPredicate.describe("one of " + allowed,
                c -> allowed.stream().anyMatch(a -> c.getName().equals(a) || c.getName().startsWith(a + "$")));
        return noClasses().that().resideOutsideOfPackages(ROOT + ".calibration..", ROOT + ".bench.calibration..",
                        ROOT + ".plant..")
                .and(DescribedPredicate.not(listed)).should().dependOnClassesThat().resideInAPackage(pkg);
    }

    @Test
    void theProductDoesNotUseTheCalibration() {
        onlyUse(ROOT + ".calibration", CALIBRATION_USERS).check(classes);
    }

    @Test
    void theProductReadsThePlantsOnlyWhereAUserSelectsThem() {
        onlyUse(ROOT + ".plant", PLANT_READERS).check(classes);
    }

    /** Both rules have teeth: a product class that reaches for the checks or a plant is reported, by name. */
    @Test
    void aProductClassUsingTheCalibrationIsCaught() {
        EvaluationResult checks = onlyUse(ROOT + ".calibration", CALIBRATION_USERS)
                .evaluate(new ClassFileImporter().importClasses(CalibrationProbe.class, Checks.class));
        assertThat(checks.hasViolation()).isTrue();
        assertThat(checks.getFailureReport().toString()).contains(CalibrationProbe.class.getName());
        EvaluationResult plants = onlyUse(ROOT + ".plant", PLANT_READERS)
                .evaluate(new ClassFileImporter().importClasses(CalibrationProbe.class, Plant.class));
        assertThat(plants.hasViolation()).isTrue();
        assertThat(plants.getFailureReport().toString()).contains(CalibrationProbe.class.getName());
    }

    /** Stands for a product class that uses a check and a plant (compiled with the tests, so never shipped). */
    static final class CalibrationProbe {
        boolean reaches() {
            return Checks.isCheck("aid-check") && Plant.NONE.callNanos() == 0;
        }
    }

    /** Stands for a base-layer class that reaches up into the run loop (compiled with the tests, so never shipped). */
    static final class Probe {
        int forks(Plan plan) {
            return plan.forks();
        }
    }
}
