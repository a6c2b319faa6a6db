// A plain greedy decode loop over an Optimum-layout decoder on ONNX Runtime's Node.js binding (onnxruntime-node),
// written as that binding's documentation writes a loop: tensors from typed arrays, session.run, the logits read from
// the returned tensor, the present tensors passed back as the next past. Nothing of inferbench is used. It times each
// request as GenerationBenchmark does: TTFT from the request's start to the first token (the prefill and the argmax of
// its last position), TPOT = (end-to-end - TTFT) / (outputLen - 1). Requests run for a warm-up time, then for a
// measured time in windows of one second; it prints one JSON line: the measured requests' mean TPOT and TTFT in ms,
// the mean time of a one-token step's argmax (the harness's gen.choice), each window's mean TPOT (as the harness's
// iterations of one second report theirs), their count, the tokens of the first request (so that two bindings can be
// held to the same greedy output) and the runtime's version.
//
// usage: node loop.js NODE_MODULES MODEL.onnx PROMPT_LEN OUTPUT_LEN THREADS WARMUP_S MEASURE_S [SEED]
'use strict';
const path = require('path');

const [modules, model, promptArg, outputArg, threadsArg, warmupArg, measureArg, seedArg] = process.argv.slice(2);
if (!measureArg) {
  console.error('usage: node loop.js NODE_MODULES MODEL.onnx PROMPT_LEN OUTPUT_LEN THREADS WARMUP_S MEASURE_S [SEED]');
  process.exit(2);
}
const ort = require(path.join(modules, 'onnxruntime-node'));
const promptLen = Number(promptArg);
const outputLen = Number(outputArg);
const threads = Number(threadsArg);
const seed = Number(seedArg || 42);

function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * Math.pow(2, -14) * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * Math.pow(2, e - 15) * (1 + f / 1024);
}

// every float16 value as a number, filled once: the argmax reads the table, not Math.pow, per logit
const HALF = new Float32Array(65536);
for (let h = 0; h < 65536; h++) HALF[h] = halfToFloat(h);

async function main() {
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const inputs = new Map(session.inputMetadata.map((m) => [m.name, m]));
  const layers = [...inputs.keys()].filter((n) => /^past_key_values\.\d+\.key$/.test(n)).length;
  if (layers === 0 || !inputs.has('input_ids') || !session.outputNames.includes('logits')) {
    throw new Error(`${model} is not a decoder in Optimum's text-generation-with-past layout`);
  }
  const past0 = inputs.get('past_key_values.0.key');
  const cacheType = past0.type;
  const [, kvHeads, , headDim] = past0.shape;
  const logitsMeta = session.outputMetadata.find((m) => m.name === 'logits');
  const vocab = logitsMeta.shape[2];
  if (typeof kvHeads !== 'number' || typeof headDim !== 'number' || typeof vocab !== 'number') {
    throw new Error(`${model}: kv_heads, head_dim and the vocabulary must be fixed in the signature`);
  }
  const hasPositions = inputs.has('position_ids');
  const merged = inputs.has('use_cache_branch');

  // seeded prompt ids (a 32-bit LCG): a step's cost does not depend on which ids it reads
  let state = seed >>> 0;
  const prompt = new BigInt64Array(promptLen);
  for (let i = 0; i < promptLen; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    prompt[i] = BigInt(state % vocab);
  }
  const emptyData = cacheType === 'float16' ? new Uint16Array(0) : new Float32Array(0);

  async function request() {
    const tokens = [];
    const t0 = process.hrtime.bigint();
    let ttft = 0n;
    let ids = prompt;
    let past = 0;
    let cache = null;
    let choice = 0n;
    for (let t = 0; t < outputLen; t++) {
      const n = ids.length;
      const feeds = {
        input_ids: new ort.Tensor('int64', ids, [1, n]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(past + n).fill(1n), [1, past + n]),
      };
      if (hasPositions) {
        const positions = new BigInt64Array(n);
        for (let i = 0; i < n; i++) positions[i] = BigInt(past + i);
        feeds.position_ids = new ort.Tensor('int64', positions, [1, n]);
      }
      if (merged) {
        feeds.use_cache_branch = new ort.Tensor('bool', [cache !== null], [1]);
      }
      for (let l = 0; l < layers; l++) {
        for (const kv of ['key', 'value']) {
          feeds[`past_key_values.${l}.${kv}`] = cache === null
            ? new ort.Tensor(cacheType, emptyData, [1, kvHeads, 0, headDim])
            : cache[`present.${l}.${kv}`];
        }
      }
      const out = await session.run(feeds);
      const chosen = process.hrtime.bigint();
      const logits = out.logits.data;
      const base = (n - 1) * vocab;
      let best = 0;
      if (out.logits.type === 'float16') {
        let bestValue = HALF[logits[base]];
        for (let v = 1; v < vocab; v++) {
          const x = HALF[logits[base + v]];
          if (x > bestValue) { best = v; bestValue = x; }
        }
      } else {
        for (let v = 1; v < vocab; v++) {
          if (logits[base + v] > logits[base + best]) best = v;
        }
      }
      tokens.push(best);
      if (t > 0) choice += process.hrtime.bigint() - chosen;
      if (t === 0) ttft = process.hrtime.bigint() - t0;
      cache = out;
      past += n;
      ids = new BigInt64Array([BigInt(best)]);
    }
    const e2e = process.hrtime.bigint() - t0;
    const ms = (ns) => Number(ns) / 1e6;
    return {
      ttft: ms(ttft),
      tpot: outputLen > 1 ? ms(e2e - ttft) / (outputLen - 1) : NaN,
      choice: outputLen > 1 ? ms(choice) / (outputLen - 1) : NaN,
      tokens,
    };
  }

  const first = await request(); // as the harness's set-up check: first-run allocations stay out of the timing
  for (const deadline = Date.now() + Number(warmupArg) * 1000; Date.now() < deadline;) {
    await request();
  }
  // the measured time in windows of one second, as the harness's measured iterations of -r 1s: each window's mean
  // TPOT over the requests it ran (a request that ends past the window's end is the window's last)
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const measured = [];
  const windowTpotMs = [];
  const start = Date.now();
  const seconds = Number(measureArg);
  for (let w = 0; w < Math.ceil(seconds); w++) {
    const deadline = start + Math.min(w + 1, seconds) * 1000;
    const inWindow = [];
    do {
      inWindow.push(await request());
    } while (Date.now() < deadline);
    measured.push(...inWindow);
    windowTpotMs.push(mean(inWindow.map((r) => r.tpot)));
  }
  console.log(JSON.stringify({
    binding: 'onnxruntime-node',
    version: require(path.join(modules, 'onnxruntime-node', 'package.json')).version,
    requests: measured.length,
    tpotMs: mean(measured.map((r) => r.tpot)),
    ttftMs: mean(measured.map((r) => r.ttft)),
    choiceMs: mean(measured.map((r) => r.choice)),
    windowTpotMs,
    tokens: first.tokens,
  }));
}

main().catch((e) => {
  console.error(`tpot-crosscheck: ${e.message}`);
  process.exit(1);
});
