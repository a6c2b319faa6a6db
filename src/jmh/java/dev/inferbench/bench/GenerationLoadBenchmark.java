package dev.inferbench.bench;

import dev.inferbench.BenchException;
import dev.inferbench.cell.CellSpec;
import dev.inferbench.config.BenchConfig;
import dev.inferbench.engine.Decoder;
import dev.inferbench.engine.DecoderLayout;
import dev.inferbench.generate.CacheBudget;
import dev.inferbench.generate.GenerationRecord;
import dev.inferbench.generate.GenerationSpec;
import dev.inferbench.generate.Prompts;
import dev.inferbench.generate.RequestLengths;
import dev.inferbench.generate.Sampling;
import dev.inferbench.generate.StaticBatcher;
import dev.inferbench.serve.CallerThreads;
import dev.inferbench.serve.OpenLoop;
import dev.inferbench.serve.RateSearch;
import dev.inferbench.serve.ServingProfiler;
import dev.inferbench.serve.ServingRecord;
import dev.inferbench.serve.ServingSpec;
import dev.inferbench.serve.StepResult;
import dev.inferbench.variant.Variants;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generation as a service sees it: requests for text arrive at a rate (ServingBenchmark's open loop: the same
 * scheduler, queue, validity and SLO verdict), each with a prompt and output length drawn from a stated distribution
 * ({@link RequestLengths}), and the cell's callers serve them with static batching: a caller takes the requests
 * waiting (up to {@code batchSize}, or those arriving within {@code batchWaitMs}) and generates them as one batch
 * ({@link StaticBatcher}). Every token's time is kept from its request's intended start, so TTFT includes the time the
 * request waited in the queue and for the batch before it. One measured step per fork: TTFT, TPOT and ITL percentiles,
 * request and token throughput, goodput at the SLO ({@code slo=ttft.p99<500ms&tpot.p99<50ms}) and the step's validity
 * ({@link ServingProfiler}); {@code rate=max} searches for the highest rate meeting the SLO ({@link RateSearch}).
 * With {@code users=N} the same loop runs closed: N users, each sending its next request when its last one ended
 * ({@link OpenLoop#closed}); {@code kvBudgetMiB} caps what the batches' caches hold together ({@link CacheBudget}).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// a warmup (back-to-back batches: JIT, engine, and the capacity a search starts from), then one measured step
@Warmup(iterations = 1)
@Measurement(iterations = 1)
@State(Scope.Benchmark)
public class GenerationLoadBenchmark extends ModelParams {
    static final double WARMUP_SECONDS = 2;
    private static final long DRAIN_NS = TimeUnit.SECONDS.toNanos(5);

    /** The most requests one batch serves (static batching of those waiting). */
    @Param("1")
    public int batchSize;

    /** Prompt tokens per request: a whole number, or uniform(a..b) drawn seeded per request. */
    @Param("128")
    public String promptLen;

    /** Output tokens per request: a whole number, or uniform(a..b) drawn seeded per request. */
    @Param("64")
    public String outputLen;

    /** none, or a file of prompt,output pairs (one per line) taking the place of promptLen and outputLen. */
    @Param("none")
    public String lengths;

    /**
     * none, or a text file of one prompt per line or a .jsonl file of {"prompt": ...} lines, encoded by the
     * tokenizer.json beside the model: each step's requests take them in a seeded order, outputLen is then the most a
     * request generates, and each stops at its end-of-sequence token.
     */
    @Param("none")
    public String prompts;

    /** fp32 (the model file as is), fp16 or int4: the variant GenerationBenchmark runs under the same name. */
    @Param("fp32")
    public String precision;

    /**
     * How each next token is chosen: greedy, top-k=K or top-p=P, optionally with &temperature=T; each caller's draws
     * seeded from seed.input and its index, running on from batch to batch.
     */
    @Param("greedy")
    public String sampling;

    /** Intra-op threads of the engine; 0 means all available cores. */
    @Param("0")
    public int threads;

    /** Concurrent callers, each running its own batches on the one loaded model. */
    @Param("1")
    public int callers;

    /**
     * Requests per second offered, or max: the highest rate that meets the SLO (needs one). 10 by default, so that a
     * step of the default 1,000 requests takes 100 s and the default cells a few minutes.
     */
    @Param("10")
    public String rate;

    /** poisson (exponential gaps, seeded) or constant (one request every 1/rate). */
    @Param("poisson")
    public String arrivals;

    /** none, or terms on ttft, tpot, itl or e2e joined with &: ttft.p99<500ms&tpot.p99<50ms. */
    @Param("none")
    public String slo;

    /** Requests per measured step; auto: 1,000, or what the SLO's percentiles need (10 / (1 - p)). */
    @Param("auto")
    public String requests;

    /** How long a caller holds its first request for others to join its batch, ms; 0: only those already waiting. */
    @Param("0")
    public String batchWaitMs;

    /**
     * The shortest a measured step may be, in s: at a rate whose requests arrive sooner, the step takes more of them
     * (0: just the requests). A step shorter than the machine's slow stretches reads them as the service's limit.
     */
    @Param("10")
    public String stepSeconds;

    /**
     * Closed-loop users, each sending its next request when its last one ended (rate and stepSeconds are then not
     * used); 0: requests arrive at the rate.
     */
    @Param("0")
    public int users;

    /** off, or the MiB the batches' KV caches may hold together: a request that would go over waits in the queue. */
    @Param("off")
    public String kvBudgetMiB;


    private Decoder decoder;
    private final List<StaticBatcher> batchers = new ArrayList<>();
    private RequestLengths requestLengths;
    /** The prompt file's prompts as encoded, or null. */
    private Prompts encoded;
    /** Each step's measured requests' prompt lengths, for the step the cell reports. */
    private final Map<StepResult, int[]> promptsOfStep = new IdentityHashMap<>();
    private ServingSpec spec;
    private OpenLoop.Batching batching;
    private long seed;
    private int vocab;
    private boolean warmup;
    private double capacity = Double.NaN;

    @Setup(Level.Trial)
    public void load(BenchmarkParams jmh) {
        CellFailure.setUp(() -> {
            BenchConfig config = BenchConfig.load();
            CellSpec cell = cell(config, jmh);
            spec = ServingSpec.of(params(jmh), true);
            requestLengths = RequestLengths.of(params(jmh));
            seed = config.seed("input");
            double wait = spec.batches() ? spec.batchWaitMs() : 0;
            CacheBudget budget = CacheBudget.of(params(jmh), requestLengths);
            Sampling choice = Sampling.parse(params(jmh).getOrDefault(Sampling.PARAM, "greedy"));
            Path file = Variants.ensure(cell.modelName(), cell.modelFile(), cell.precision(), cell.model().inputs(),
                    Variants.calibrationSeed(cell.inputSeed()), System.out);
            decoder = cell.engine().openDecoder(file, cell.device(), cell.settings());
            DecoderLayout layout = decoder.layout();
            requestLengths.check(layout, cell.modelName(), cell.modelFile());
            encoded = requestLengths.encode(cell.modelFile(), layout);
            if (budget != null) {
                budget.check(layout, cell.modelName(), encoded); // the cache of the file the fork runs
            }
            vocab = layout.vocab();
            if (cell.batchSize() > 1) {
                // padding only where a batch holds several requests; greedy, so alone and together can be compared
                try (StaticBatcher greedy = new StaticBatcher(decoder, 2)) {
                    greedy.check(vocab, seed, 3, 7, 5);
                }
            }
            for (int c = 0; c < cell.callers(); c++) {
                batchers.add(new StaticBatcher(decoder, cell.batchSize(), choice.sampler(seed + c), encoded));
            }
            // every caller's batcher serves the same drawn requests: any one of them sizes a batch's cache
            batching = new OpenLoop.Batching(cell.batchSize(), Math.round(wait * 1e6),
                    budget == null ? null : budget.admission(layout, batchers.get(0)));
        }, this::tearDown);
    }

    @Setup(Level.Iteration)
    public void iteration(IterationParams params) {
        warmup = params.getType() == IterationType.WARMUP;
    }

    @Benchmark
    public void step() throws Exception {
        try {
            serve();
        } catch (BenchException e) {
            throw new CellFailure(e); // a caller's batch failed: the cell fails with its one line
        }
    }

    private void serve() throws Exception {
        if (warmup || Double.isNaN(capacity)) {
            capacity = closedLoopCapacity();
            if (warmup) {
                return;
            }
        }
        List<OpenLoop.Serve> serves = batchers.stream().<OpenLoop.Serve>map(b -> b::serve).toList();
        int[] stepNo = {0};
        RateSearch.Step step = perSecond -> {
            int warm = spec.warmupRequests(perSecond);
            int n = warm + spec.requestsAt(perSecond);
            RequestLengths.Drawn drawn = requestLengths.draw(n, seed + stepNo[0], vocab, encoded);
            batchers.forEach(b -> b.use(drawn));
            StepResult r = spec.closed() ? OpenLoop.closed(serves, batching, spec.users(), n, warm, DRAIN_NS)
                    : OpenLoop.serve(serves, batching, spec.arrivals().schedule(perSecond, n, seed + stepNo[0]),
                    warm, perSecond, Math.max(DRAIN_NS, (long) (spec.requestsAt(perSecond) / perSecond * 1e9)));
            stepNo[0]++;
            ServingProfiler.countCalls(r);
            promptsOfStep.put(r, Arrays.copyOfRange(drawn.prompt(), warm, n));
            return r;
        };
        StepResult reported = ServingRecord.measure(step, spec, capacity);
        // the reported step's lengths: each measured request's prompt, each served one's output
        GenerationRecord.lengths(promptsOfStep.getOrDefault(reported, new int[0]),
                reported.tokens().stream().filter(Objects::nonNull).mapToInt(t -> t.tokens()).toArray());
        promptsOfStep.clear();
    }

    /**
     * Requests per second the callers serve in full batches back to back, over about {@value #WARMUP_SECONDS} s (at
     * least one batch each), lengths drawn as the steps draw them.
     */
    private double closedLoopCapacity() throws Exception {
        RequestLengths.Drawn drawn = requestLengths.draw(batching.maxRequests(), seed - 1, vocab, encoded);
        int[] all = new int[batching.maxRequests()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        batchers.forEach(b -> b.use(drawn));
        // full batches: as many as the cache budget admits, when the cell has one
        int perBatch = batching.admission() == null ? all.length : batching.admission().fitting(all);
        int[] ids = Arrays.copyOf(all, perBatch);
        long start = System.nanoTime();
        long end = start + (long) (WARMUP_SECONDS * 1e9);
        AtomicLong served = new AtomicLong();
        CallerThreads.start(batchers, "inferbench-warmup-caller", (caller, batcher) -> {
            do {
                batcher.serve(ids);
                served.addAndGet(perBatch);
            } while (System.nanoTime() < end);
        }).join();
        return served.get() / ((System.nanoTime() - start) / 1e9);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        batchers.forEach(StaticBatcher::close);
        batchers.clear();
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
    }
}
