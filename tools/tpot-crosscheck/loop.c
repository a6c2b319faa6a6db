/*
 * A plain greedy decode loop over an Optimum-layout decoder on ONNX Runtime's C API, with no binding in between: the
 * library is the very libonnxruntime.so that the harness's Java binding loads (taken from the onnxruntime jar), opened
 * with dlopen, and called through the OrtApi table that OrtGetApiBase returns. Nothing of inferbench is used. Each
 * request is timed as GenerationBenchmark times one: TTFT from the request's start to the first token (the prefill and
 * the argmax of its last position), TPOT = (end-to-end - TTFT) / (outputLen - 1). Requests run for a warm-up time,
 * then for a measured time in windows of one second; it prints one JSON line, as loop.js does: the measured requests'
 * mean TPOT and TTFT in ms, the mean time of a one-token step's argmax (the harness's gen.choice), each window's mean
 * TPOT (as the harness's iterations of one second report theirs), their count, the tokens of the first request and
 * the library's version.
 *
 * No ONNX Runtime header is needed: the few functions used are called by their place in the OrtApi table, which ONNX
 * Runtime only ever appends to (the places below are those of the table's first version, unchanged since 1.0).
 *
 * usage: loop LIBONNXRUNTIME.so MODEL.onnx PROMPT_LEN OUTPUT_LEN THREADS WARMUP_S MEASURE_S [SEED]
 * build: cc -O2 -o loop loop.c -ldl
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *Status; /* OrtStatus*, NULL on success */
typedef struct {
    const void *const *(*get_api)(uint32_t version);
    const char *(*get_version_string)(void);
} ApiBase;

/* places in the OrtApi table */
enum {
    GET_ERROR_MESSAGE = 2, CREATE_ENV = 3, CREATE_SESSION = 7, RUN = 9, CREATE_SESSION_OPTIONS = 10,
    SET_GRAPH_OPTIMIZATION_LEVEL = 23, SET_INTRA_OP_THREADS = 24, SESSION_GET_INPUT_COUNT = 30,
    SESSION_GET_OUTPUT_COUNT = 31, SESSION_GET_INPUT_TYPE_INFO = 33, SESSION_GET_OUTPUT_TYPE_INFO = 34,
    SESSION_GET_INPUT_NAME = 36, SESSION_GET_OUTPUT_NAME = 37, CREATE_TENSOR_WITH_DATA = 49,
    GET_TENSOR_MUTABLE_DATA = 51, CAST_TYPE_INFO_TO_TENSOR_INFO = 55, GET_TENSOR_ELEMENT_TYPE = 60,
    GET_DIMENSIONS_COUNT = 61, GET_DIMENSIONS = 62, CREATE_CPU_MEMORY_INFO = 69,
    GET_ALLOCATOR_WITH_DEFAULT_OPTIONS = 78, RELEASE_VALUE = 96, RELEASE_TYPE_INFO = 98
};
enum { FLOAT = 1, INT64 = 7, BOOL = 9, FLOAT16 = 10 }; /* ONNX element types */

static const void *const *api;
#define FN(place, type) ((type) api[place])

static void check(Status s, const char *what) {
    if (s) {
        const char *msg = FN(GET_ERROR_MESSAGE, const char *(*)(Status))(s);
        fprintf(stderr, "tpot-crosscheck: %s: %s\n", what, msg);
        exit(1);
    }
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static float half_to_float(uint16_t h) {
    int s = h >> 15, e = (h >> 10) & 0x1f, f = h & 0x3ff;
    float v = e == 0 ? ldexpf((float) f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexpf((float) (f | 0x400), e - 25);
    return s ? -v : v;
}

/* every float16 value as a float, filled once: the argmax reads the table, not ldexpf, per logit */
static float half_table[65536];

typedef struct {
    void *session, *memory;
    int inputs, outputs, layers, elem, has_positions, merged;
    char **input_names, **output_names;
    int64_t kv_heads, head_dim, vocab;
    int logits_out, logits_elem;
    int64_t *prompt;
    int prompt_len, output_len;
} Loop;

static void *tensor(Loop *lp, void *data, size_t bytes, const int64_t *shape, size_t rank, int type) {
    void *value = NULL;
    check(FN(CREATE_TENSOR_WITH_DATA, Status (*)(void *, void *, size_t, const int64_t *, size_t, int, void **))(
            lp->memory, data, bytes, shape, rank, type, &value), "CreateTensorWithDataAsOrtValue");
    return value;
}

/* the element type and shape of input or output {index} as the session declares them */
static void declared(Loop *lp, int output, int index, int *elem, int64_t *dims, size_t *rank) {
    void *info = NULL;
    const void *tensor_info = NULL;
    check(FN(output ? SESSION_GET_OUTPUT_TYPE_INFO : SESSION_GET_INPUT_TYPE_INFO, Status (*)(void *, size_t, void **))(
            lp->session, index, &info), "SessionGetInputTypeInfo/SessionGetOutputTypeInfo");
    check(FN(CAST_TYPE_INFO_TO_TENSOR_INFO, Status (*)(const void *, const void **))(info, &tensor_info),
          "CastTypeInfoToTensorInfo");
    check(FN(GET_TENSOR_ELEMENT_TYPE, Status (*)(const void *, int *))(tensor_info, elem), "GetTensorElementType");
    check(FN(GET_DIMENSIONS_COUNT, Status (*)(const void *, size_t *))(tensor_info, rank), "GetDimensionsCount");
    if (*rank > 8) {
        fprintf(stderr, "tpot-crosscheck: a tensor of rank %zu; expected 8 at most\n", *rank);
        exit(1);
    }
    check(FN(GET_DIMENSIONS, Status (*)(const void *, int64_t *, size_t))(tensor_info, dims, *rank), "GetDimensions");
    FN(RELEASE_TYPE_INFO, void (*)(void *))(info);
}

/* one request: the prefill, then one token a step with the cache; returns TTFT and TPOT in ms, and adds each one-token
   step's argmax time (ms) to *choice */
static void request(Loop *lp, double *ttft, double *tpot, double *choice, int64_t *tokens) {
    int n_in = lp->inputs, n_out = lp->outputs;
    void **feeds = calloc(n_in, sizeof(void *)), **outs = calloc(n_out, sizeof(void *));
    void **cache = NULL; /* the last step's outputs: its presents are this step's pasts */
    int64_t *mask = malloc(sizeof(int64_t) * (lp->prompt_len + lp->output_len));
    int64_t positions[4096], next_id = 0;
    uint8_t cache_branch = 0;
    char empty[1];
    int64_t past = 0;
    double t0 = now_ms();
    for (int t = 0; t < lp->output_len; t++) {
        int64_t n = t == 0 ? lp->prompt_len : 1;
        int64_t *ids = t == 0 ? lp->prompt : &next_id;
        for (int64_t i = 0; i < past + n; i++) mask[i] = 1;
        for (int64_t i = 0; i < n; i++) positions[i] = past + i;
        cache_branch = cache != NULL;
        for (int i = 0; i < n_in; i++) {
            const char *name = lp->input_names[i];
            int64_t shape2[2] = {1, n}, mask_shape[2] = {1, past + n}, one[1] = {1};
            feeds[i] = NULL;
            if (!strcmp(name, "input_ids")) {
                feeds[i] = tensor(lp, ids, n * sizeof(int64_t), shape2, 2, INT64);
            } else if (!strcmp(name, "attention_mask")) {
                feeds[i] = tensor(lp, mask, (past + n) * sizeof(int64_t), mask_shape, 2, INT64);
            } else if (!strcmp(name, "position_ids")) {
                feeds[i] = tensor(lp, positions, n * sizeof(int64_t), shape2, 2, INT64);
            } else if (!strcmp(name, "use_cache_branch")) {
                feeds[i] = tensor(lp, &cache_branch, 1, one, 1, BOOL);
            } else if (!strncmp(name, "past_key_values.", 16)) {
                int layer = atoi(name + 16);
                const char *kind = strrchr(name, '.') + 1;
                if (cache == NULL) {
                    int64_t shape4[4] = {1, lp->kv_heads, 0, lp->head_dim};
                    feeds[i] = tensor(lp, empty, 0, shape4, 4, lp->elem);
                } else {
                    char present[64];
                    snprintf(present, sizeof present, "present.%d.%s", layer, kind);
                    for (int o = 0; o < n_out; o++) {
                        if (!strcmp(lp->output_names[o], present)) feeds[i] = cache[o];
                    }
                }
            }
            if (!feeds[i]) {
                fprintf(stderr, "tpot-crosscheck: no feed for input %s\n", name);
                exit(1);
            }
        }
        memset(outs, 0, n_out * sizeof(void *));
        check(FN(RUN, Status (*)(void *, const void *, const char *const *, const void *const *, size_t,
                                 const char *const *, size_t, void **))(
                lp->session, NULL, (const char *const *) lp->input_names, (const void *const *) feeds, n_in,
                (const char *const *) lp->output_names, n_out, outs), "Run");
        double chosen = now_ms();
        void *logits_data = NULL;
        check(FN(GET_TENSOR_MUTABLE_DATA, Status (*)(void *, void **))(outs[lp->logits_out], &logits_data),
              "GetTensorMutableData");
        int64_t base = (n - 1) * lp->vocab, best = 0;
        if (lp->logits_elem == FLOAT16) {
            const uint16_t *l = (const uint16_t *) logits_data + base;
            float best_value = half_table[l[0]];
            for (int64_t v = 1; v < lp->vocab; v++) {
                float x = half_table[l[v]];
                if (x > best_value) { best = v; best_value = x; }
            }
        } else {
            const float *l = (const float *) logits_data + base;
            for (int64_t v = 1; v < lp->vocab; v++) {
                if (l[v] > l[best]) best = v;
            }
        }
        if (t > 0) *choice += now_ms() - chosen;
        if (tokens) tokens[t] = best;
        if (t == 0) *ttft = now_ms() - t0;
        /* this step's inputs it made, and the last step's outputs (its presents were this step's pasts) */
        for (int i = 0; i < n_in; i++) {
            if (cache == NULL || strncmp(lp->input_names[i], "past_key_values.", 16)) {
                FN(RELEASE_VALUE, void (*)(void *))(feeds[i]);
            }
        }
        if (cache) {
            for (int o = 0; o < n_out; o++) FN(RELEASE_VALUE, void (*)(void *))(cache[o]);
        } else {
            cache = calloc(n_out, sizeof(void *));
        }
        memcpy(cache, outs, n_out * sizeof(void *));
        past += n;
        next_id = best;
    }
    double e2e = now_ms() - t0;
    *tpot = lp->output_len > 1 ? (e2e - *ttft) / (lp->output_len - 1) : NAN;
    for (int o = 0; o < n_out; o++) FN(RELEASE_VALUE, void (*)(void *))(cache[o]);
    free(cache);
    free(mask);
    free(feeds);
    free(outs);
}

int main(int argc, char **argv) {
    if (argc < 8) {
        fprintf(stderr, "usage: loop LIBONNXRUNTIME.so MODEL.onnx PROMPT_LEN OUTPUT_LEN THREADS WARMUP_S MEASURE_S"
                        " [SEED]\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "tpot-crosscheck: cannot open %s: %s\n", argv[1], dlerror());
        return 1;
    }
    const ApiBase *(*get_api_base)(void) = (const ApiBase *(*)(void)) dlsym(lib, "OrtGetApiBase");
    if (!get_api_base) {
        fprintf(stderr, "tpot-crosscheck: %s has no OrtGetApiBase; expected ONNX Runtime's library\n", argv[1]);
        return 1;
    }
    for (int h = 0; h < 65536; h++) half_table[h] = half_to_float((uint16_t) h);
    const ApiBase *base = get_api_base();
    api = base->get_api(1); /* the table's first version: every place used below */
    if (!api) {
        fprintf(stderr, "tpot-crosscheck: %s offers no version 1 of its API\n", argv[1]);
        return 1;
    }
    Loop lp = {0};
    lp.prompt_len = atoi(argv[3]);
    lp.output_len = atoi(argv[4]);
    int threads = atoi(argv[5]);
    double warmup_s = atof(argv[6]), measure_s = atof(argv[7]);
    uint32_t state = argc > 8 ? (uint32_t) strtoul(argv[8], NULL, 10) : 42;
    if (lp.prompt_len < 1 || lp.prompt_len > 4096 || lp.output_len < 1) {
        fprintf(stderr, "tpot-crosscheck: PROMPT_LEN must be 1 to 4096 and OUTPUT_LEN 1 or more\n");
        return 2;
    }

    void *env = NULL, *options = NULL, *allocator = NULL;
    check(FN(CREATE_ENV, Status (*)(int, const char *, void **))(3 /* error */, "tpot-crosscheck", &env), "CreateEnv");
    check(FN(CREATE_SESSION_OPTIONS, Status (*)(void **))(&options), "CreateSessionOptions");
    check(FN(SET_INTRA_OP_THREADS, Status (*)(void *, int))(options, threads), "SetIntraOpNumThreads");
    check(FN(SET_GRAPH_OPTIMIZATION_LEVEL, Status (*)(void *, int))(options, 99 /* all */),
          "SetSessionGraphOptimizationLevel");
    check(FN(CREATE_SESSION, Status (*)(void *, const char *, void *, void **))(env, argv[2], options, &lp.session),
          "CreateSession");
    check(FN(CREATE_CPU_MEMORY_INFO, Status (*)(int, int, void **))(0 /* device allocator */, 0, &lp.memory),
          "CreateCpuMemoryInfo");
    check(FN(GET_ALLOCATOR_WITH_DEFAULT_OPTIONS, Status (*)(void **))(&allocator), "GetAllocatorWithDefaultOptions");

    size_t count = 0;
    check(FN(SESSION_GET_INPUT_COUNT, Status (*)(void *, size_t *))(lp.session, &count), "SessionGetInputCount");
    lp.inputs = (int) count;
    check(FN(SESSION_GET_OUTPUT_COUNT, Status (*)(void *, size_t *))(lp.session, &count), "SessionGetOutputCount");
    lp.outputs = (int) count;
    lp.input_names = calloc(lp.inputs, sizeof(char *));
    lp.output_names = calloc(lp.outputs, sizeof(char *));
    lp.logits_out = -1;
    for (int i = 0; i < lp.inputs; i++) {
        check(FN(SESSION_GET_INPUT_NAME, Status (*)(void *, size_t, void *, char **))(
                lp.session, i, allocator, &lp.input_names[i]), "SessionGetInputName");
        const char *name = lp.input_names[i];
        if (!strcmp(name, "position_ids")) lp.has_positions = 1;
        if (!strcmp(name, "use_cache_branch")) lp.merged = 1;
        if (!strncmp(name, "past_key_values.", 16) && strstr(name, ".key")) {
            int64_t dims[8];
            size_t rank = 0;
            declared(&lp, 0, i, &lp.elem, dims, &rank);
            if (rank != 4 || dims[1] <= 0 || dims[3] <= 0) {
                fprintf(stderr, "tpot-crosscheck: %s: kv_heads and head_dim must be fixed in the signature\n", name);
                return 1;
            }
            lp.kv_heads = dims[1];
            lp.head_dim = dims[3];
            lp.layers++;
        }
    }
    for (int o = 0; o < lp.outputs; o++) {
        check(FN(SESSION_GET_OUTPUT_NAME, Status (*)(void *, size_t, void *, char **))(
                lp.session, o, allocator, &lp.output_names[o]), "SessionGetOutputName");
        if (!strcmp(lp.output_names[o], "logits")) {
            int64_t dims[8];
            size_t rank = 0;
            lp.logits_out = o;
            declared(&lp, 1, o, &lp.logits_elem, dims, &rank);
            lp.vocab = rank == 3 ? dims[2] : -1;
        }
    }
    if (lp.layers == 0 || lp.logits_out < 0 || lp.vocab <= 0) {
        fprintf(stderr, "tpot-crosscheck: %s is not a decoder in Optimum's text-generation-with-past layout"
                        " (past_key_values.N.key/value inputs, a logits output with a fixed vocabulary)\n", argv[2]);
        return 1;
    }
    if (lp.elem != FLOAT && lp.elem != FLOAT16) {
        fprintf(stderr, "tpot-crosscheck: caches of ONNX type %d; expected float32 or float16\n", lp.elem);
        return 1;
    }

    /* seeded prompt ids, the same 32-bit LCG as loop.js: a step's cost does not depend on which ids it reads */
    lp.prompt = malloc(sizeof(int64_t) * lp.prompt_len);
    for (int i = 0; i < lp.prompt_len; i++) {
        state = state * 1664525u + 1013904223u;
        lp.prompt[i] = state % (uint32_t) lp.vocab;
    }
    int64_t *first = malloc(sizeof(int64_t) * lp.output_len);
    double ttft, tpot, sum_ttft = 0, sum_tpot = 0, choice = 0, unused = 0;
    int measured = 0, windows = (int) ceil(measure_s);
    double *window_tpot = calloc(windows, sizeof(double));
    request(&lp, &ttft, &tpot, &unused, first); /* as the harness's set-up check: first-run allocations stay out */
    for (double end = now_ms() + warmup_s * 1e3; now_ms() < end;) request(&lp, &ttft, &tpot, &unused, NULL);
    /* the measured time in windows of one second, as the harness's measured iterations of -r 1s: each window's
       mean TPOT over the requests it ran (a request ends the window it is in when it ends past the window's end) */
    double start = now_ms();
    for (int w = 0; w < windows; w++) {
        double end = start + (w + 1 < measure_s ? w + 1 : measure_s) * 1e3, sum = 0;
        int in_window = 0;
        do {
            request(&lp, &ttft, &tpot, &choice, NULL);
            sum_ttft += ttft;
            sum_tpot += tpot;
            sum += tpot;
            measured++;
            in_window++;
        } while (now_ms() < end);
        window_tpot[w] = sum / in_window;
    }
    printf("{\"binding\":\"C API\",\"version\":\"%s\",\"requests\":%d,\"tpotMs\":%.6f,\"ttftMs\":%.6f,"
           "\"choiceMs\":%.6f,\"windowTpotMs\":[", base->get_version_string(), measured, sum_tpot / measured,
           sum_ttft / measured, choice / ((double) measured * (lp.output_len - 1)));
    for (int w = 0; w < windows; w++) printf("%s%.6f", w ? "," : "", window_tpot[w]);
    printf("],\"tokens\":[");
    for (int t = 0; t < lp.output_len; t++) printf("%s%" PRId64, t ? "," : "", first[t]);
    printf("]}\n");
    return 0;
}
