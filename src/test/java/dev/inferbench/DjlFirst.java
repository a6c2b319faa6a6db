package dev.inferbench;

import dev.inferbench.engine.EngineKind;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * In the JVM of the DJL tests (the surefire execution {@code djl-tests}, which turns JUnit's extension autodetection
 * on): DJL's OnnxRuntime engine starts before any test class touches ONNX Runtime, as a pass's JVM starts it
 * ({@link EngineKind#startFirst}), whatever order the classes run in.
 */
public final class DjlFirst implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        EngineKind.DJL_ORT.startFirst();
    }
}
