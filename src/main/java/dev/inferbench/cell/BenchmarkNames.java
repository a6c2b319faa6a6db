package dev.inferbench.cell;

/**
 * The benchmarks of src/jmh by name, the one place library code spells them: library code does not depend on the
 * benchmarks, only the other way round, so it cannot name them by class literal. {@code BenchmarkNamesTest} checks
 * every constant here against JMH's benchmark list and the {@code @Benchmark} methods of the built classes.
 */
public final class BenchmarkNames {
    /** The package of every benchmark, with its trailing dot. */
    public static final String PACKAGE = "dev.inferbench.bench.";
    public static final String INFERENCE = PACKAGE + "InferenceBenchmark";
    /** The inference call itself: the cells the operator profile and the activation pass follow. */
    public static final String INFERENCE_INFER = INFERENCE + ".infer";
    public static final String END_TO_END = PACKAGE + "EndToEndBenchmark";
    public static final String COLD_START = PACKAGE + "ColdStartBenchmark";
    public static final String SERVING = PACKAGE + "ServingBenchmark";
    public static final String TRAINING = PACKAGE + "TrainingBenchmark";
    public static final String GENERATION = PACKAGE + "GenerationBenchmark";
    /** Generation requests under open-loop load, with static batching. */
    public static final String GENERATION_LOAD = PACKAGE + "GenerationLoadBenchmark";
    /** GenerationBenchmark's request as a plain ONNX Runtime loop: the reference for the harness's overhead. */
    public static final String PLAIN_ORT_LOOP = PACKAGE + "PlainOrtLoopBenchmark";

    private BenchmarkNames() {
    }

    /**
     * Whether {@code benchmark}, a method's full name ({@code dev.inferbench.bench.InferenceBenchmark.infer}) or its
     * short name as the summary shows it ({@code InferenceBenchmark.infer}, perhaps followed by {@code " [avgt]"}),
     * is a method of {@code benchmarkClass} (one of the class constants here).
     */
    public static boolean inClass(String benchmark, String benchmarkClass) {
        return local(benchmark).startsWith(local(benchmarkClass) + ".");
    }

    /** Whether {@code benchmark}, full or short as for {@link #inClass}, is the method {@code method}. */
    public static boolean isMethod(String benchmark, String method) {
        String b = local(benchmark);
        String m = local(method);
        return b.equals(m) || b.startsWith(m + " [");
    }

    /** {@code InferenceBenchmark.infer} of {@code dev.inferbench.bench.InferenceBenchmark.infer}. */
    private static String local(String name) {
        return name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : name;
    }
}
