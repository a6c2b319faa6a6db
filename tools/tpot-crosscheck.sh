#!/usr/bin/env bash
# The harness's TPOT against a plain ONNX Runtime loop in another binding: GenerationBenchmark (ORT's Java binding,
# through inferbench) and tools/tpot-crosscheck/loop.js (ORT's Node.js binding, onnxruntime-node, at the version the
# pom bundles) decode greedily over the same Optimum-layout decoder file with the same prompt length, output length,
# batch 1 and intra-op threads, in rounds that interleave the two (node, java; then java, node; ...), each side a fresh
# process per round, with the same warm-up and measured time. It prints each round's mean TPOT of both, the medians
# over the rounds and the ratio harness / node (the median of the rounds' ratios, and the ratio of the medians).
#
# Build-time step, the only one that reaches a registry: the first run installs onnxruntime-node@<the pom's ORT
# version> from npm into target/node-ort/ (ignored), with ONNXRUNTIME_NODE_INSTALL=skip so that its install script
# fetches nothing (the package carries its linux-x64 CPU library; only the CUDA provider would be downloaded). Later
# runs reuse it and reach nothing. Needs target/benchmarks.jar (mvn package) and node/npm on the PATH.
#
# usage: tools/tpot-crosscheck.sh MODEL.onnx [ROUNDS=5] [PROMPT_LEN=128] [OUTPUT_LEN=64] [THREADS=1]
#        [WARMUP_S=2] [MEASURE_S=6]
#   e.g. tools/tpot-crosscheck.sh models/llama-tiny.onnx
# Run it alone on the machine: on a shared machine hold its CPU lock around the whole script.
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: tools/tpot-crosscheck.sh MODEL.onnx [ROUNDS] [PROMPT_LEN] [OUTPUT_LEN] [THREADS]" \
  "[WARMUP_S] [MEASURE_S]" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
model="$(cd "$(dirname "$1")" 2>/dev/null && pwd)/$(basename "$1")"
[[ -f "$model" ]] || { echo "model file not found: $1; expected an .onnx decoder in Optimum's layout" >&2; exit 2; }
rounds="${2:-5}" prompt="${3:-128}" output="${4:-64}" threads="${5:-1}" warmup="${6:-2}" measure="${7:-6}"
for n in "$rounds" "$prompt" "$output" "$threads" "$warmup" "$measure"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "expected whole numbers >= 1; found '$n'" >&2; exit 2; }
done
(( output >= 2 )) || { echo "OUTPUT_LEN must be 2 or more: TPOT needs a second token; found $output" >&2; exit 2; }
(( rounds >= 3 )) || { echo "ROUNDS must be 3 or more; found $rounds" >&2; exit 2; }
jar="$root/target/benchmarks.jar"
[[ -f "$jar" ]] || { echo "no $jar; expected the built harness (mvn -q package -DskipTests)" >&2; exit 2; }
command -v node >/dev/null && command -v npm >/dev/null || { echo "node and npm not found; expected Node.js 18+" >&2; exit 2; }
version="$(sed -n 's:.*<onnxruntime.version>\(.*\)</onnxruntime.version>.*:\1:p' "$root/pom.xml")"
prefix="$root/target/node-ort"
modules="$prefix/node_modules"
installed="$(node -p "try { require('$modules/onnxruntime-node/package.json').version } catch (e) { '' }")"
if [[ "$installed" != "$version" ]]; then
  echo "[tpot-crosscheck] installing onnxruntime-node@$version into $prefix (build-time step; no download after it)"
  mkdir -p "$prefix"
  ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
    "onnxruntime-node@$version" >&2
fi
work="$root/results/tpot-crosscheck/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$work"
echo "[tpot-crosscheck] $model: batch 1, prompt $prompt, output $output, threads $threads; $rounds rounds of" \
  "${warmup}s warm-up + ${measure}s measured per side; ORT $version (Java binding in the harness, Node.js binding)"
echo "[tpot-crosscheck] machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores;" \
  "$(java -version 2>&1 | head -1); node $(node --version)"

run_node() { # round -> TPOT ms
  node "$root/tools/tpot-crosscheck/loop.js" "$modules" "$model" "$prompt" "$output" "$threads" "$warmup" "$measure" \
    > "$work/node-$1.json" 2> "$work/node-$1.log" || { cat "$work/node-$1.log" >&2; exit 1; }
  node -p "require('$work/node-$1.json').tpotMs"
}
run_java() { # round -> TPOT ms (gen.tpot of the one fork: the mean over its measured iterations)
  java -jar "$jar" GenerationBenchmark -p "model=$model" -p batchSize=1 -p "promptLen=$prompt" \
    -p "outputLen=$output" -p "threads=$threads" -f 1 -wi 1 -w "${warmup}s" -i "$measure" -r 1s \
    --run-dir "$work/java-$1" > "$work/java-$1.log" 2>&1 || { tail -5 "$work/java-$1.log" >&2; exit 1; }
  node -e "
    const r = require('$work/java-$1/jmh-result.json');
    const m = r[0] && r[0].secondaryMetrics && r[0].secondaryMetrics['gen.tpot'];
    if (!m) { console.error('no gen.tpot in $work/java-$1/jmh-result.json'); process.exit(1); }
    console.log(m.score);"
}
declare -a node_tpot java_tpot
for ((i = 1; i <= rounds; i++)); do
  if (( i % 2 )); then
    n="$(run_node "$i")"; j="$(run_java "$i")"; order="node, java"
  else
    j="$(run_java "$i")"; n="$(run_node "$i")"; order="java, node"
  fi
  node_tpot+=("$n"); java_tpot+=("$j")
  printf '[tpot-crosscheck] round %d (%s): node %.4f ms, harness %.4f ms, harness/node %.4f\n' \
    "$i" "$order" "$n" "$j" "$(node -p "$j / $n")"
done
node -e "
  const nodeT = [$(IFS=,; echo "${node_tpot[*]}")], javaT = [$(IFS=,; echo "${java_tpot[*]}")];
  const med = (xs) => { const s = [...xs].sort((a, b) => a - b), k = s.length >> 1;
    return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2; };
  const ratios = javaT.map((j, i) => j / nodeT[i]);
  console.log('TPOT median over ' + nodeT.length + ' rounds: node ' + med(nodeT).toFixed(4) + ' ms, harness '
    + med(javaT).toFixed(4) + ' ms');
  console.log('harness / node: ' + med(ratios).toFixed(4) + ' (median of the rounds\' ratios; range '
    + Math.min(...ratios).toFixed(4) + '-' + Math.max(...ratios).toFixed(4) + '), ratio of the medians '
    + (med(javaT) / med(nodeT)).toFixed(4));
"
echo "[tpot-crosscheck] every round's output in $work"
