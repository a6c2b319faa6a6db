package dev.inferbench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which engines' native libraries this jar carries. The ONNX-Runtime-only jar ({@code mvn -Port-only package})
 * leaves out libtorch and DJL's PyTorch JNI; DJL, offline, would otherwise try to download them in every fork and
 * fail there, so a djl-pytorch cell is refused here, before JMH starts, with a reason instead.
 */
public final class JarContents {
    /** DJL's descriptor of the libtorch build in the jar (pytorch-native-cpu) and of its JNI (pytorch-jni). */
    static final String LIBTORCH = "native/lib/pytorch.properties";
    static final String TORCH_JNI = "jnilib/pytorch.properties";
    /** A libtorch on disk that DJL loads instead of the jar's (docs/engines.md, GPUs); the JNI still comes from the jar. */
    static final String LIBTORCH_PATH = "PYTORCH_LIBRARY_PATH";

    private final Predicate<String> inJar;
    private final Function<String, String> env;

    public JarContents(Predicate<String> inJar, Function<String, String> env) {
        this.inJar = inJar;
        this.env = env;
    }

    /** This process's class path and environment. */
    public static JarContents running() {
        ClassLoader loader = JarContents.class.getClassLoader();
        return new JarContents(resource -> loader.getResource(resource) != null, System::getenv);
    }

    /** @return why {@code engine} is not in this jar, in one line; empty when it is */
    public Optional<String> missing(EngineKind engine) {
        if (engine != EngineKind.DJL_PYTORCH) {
            return Optional.empty(); // ONNX Runtime is in every build
        }
        List<String> absent = new ArrayList<>();
        String path = env.apply(LIBTORCH_PATH);
        if ((path == null || path.isBlank()) && !inJar.test(LIBTORCH)) {
            absent.add("libtorch");
        }
        if (!inJar.test(TORCH_JNI)) {
            absent.add("DJL's PyTorch JNI");
        }
        if (absent.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("engine '" + engine.id() + "' is not in this jar (no " + String.join(" nor ", absent)
                + ": an ONNX-Runtime-only build, mvn -Port-only); expected the full jar (mvn -q package) for "
                + engine.id() + " cells");
    }
}
