package dev.inferbench.verify;

import java.util.Locale;

/** One cell of the compatibility matrix: how a model fared on one engine and device. */
public record EngineCheck(String model, String engine, String device, Status status, String detail) {

    public enum Status {
        /** Ran, and every output is within tolerance of what was expected. */
        AGREES,
        /** Ran, but some output is outside the tolerance. */
        DISAGREES,
        /** Did not load or did not run. */
        FAILED,
        /** The device is not there, or this build of the engine cannot use it: not a failure. */
        UNAVAILABLE,
        /**
         * Not applicable: the engine does not read this kind of model file (libtorch and an ONNX file the zoo did not
         * write, ONNX Runtime and a TorchScript file), so there was nothing to run. Not a failure; the detail says why.
         */
        NOT_APPLICABLE,
        /**
         * Ran, with nothing to compare its outputs against (no test set, and the reference engine does not read the
         * file, as for a TorchScript file): not a failure, and no claim of agreement either.
         */
        RUNS;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }

        public boolean isProblem() {
            return this == DISAGREES || this == FAILED;
        }
    }
}
