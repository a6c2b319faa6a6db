#!/usr/bin/env bash
# The harness's TPOT against a plain ONNX Runtime loop outside Java: GenerationBenchmark (ORT's Java binding, through
# inferbench) and a plain greedy loop over the same Optimum-layout decoder file, with the same prompt length, output
# length, batch 1 and intra-op threads, in rounds that interleave the two (other, java; then java, other; ...), each
# side a fresh process per round, with the same warm-up and measured time, measured in windows of one second (the
# harness's iterations, -r 1s; its warm-up is in iterations of 1 s too, so that what runs between iterations is
# compiled before the measured ones). It prints each round's TPOT of both two ways, the mean over the measured time and the
# median of the windows' means (which leaves out a second or two in which the shared machine took the core away), and
# the time of each side's argmax (the harness's gen.choice); then for TPOT both ways, and for the step less its argmax
# (what the engine and its binding take), the medians over the rounds and the ratio harness / other (the median of the
# rounds' ratios, and the ratio of the medians). The other side (--against):
#   c     tools/tpot-crosscheck/loop.c: ONNX Runtime's C API with no binding between, on the very libonnxruntime.so the
#         harness loads (taken from target/benchmarks.jar); built here with cc into target/c-ort/ (ignored)
#   node  tools/tpot-crosscheck/loop.js: ONNX Runtime's Node.js binding, onnxruntime-node at the version the pom
#         bundles. Build-time step, the only one that reaches a registry: the first run installs it from npm into
#         target/node-ort/ (ignored), with ONNXRUNTIME_NODE_INSTALL=skip so that its install script fetches nothing
#         (the package carries its linux-x64 CPU library). Later runs reuse it and reach nothing.
# Needs target/benchmarks.jar (mvn package) and python3; cc for --against c, node and npm for --against node.
#
# usage: tools/tpot-crosscheck.sh [--against c|node] MODEL.onnx [ROUNDS=5] [PROMPT_LEN=128] [OUTPUT_LEN=64]
#        [THREADS=1] [WARMUP_S=2] [MEASURE_S=6]
#   e.g. tools/tpot-crosscheck.sh --against c models/llama-tiny.onnx
# Run it alone on the machine: on a shared machine hold its CPU lock around the whole script.
set -euo pipefail
usage="usage: tools/tpot-crosscheck.sh [--against c|node] MODEL.onnx [ROUNDS] [PROMPT_LEN] [OUTPUT_LEN] [THREADS]
       [WARMUP_S] [MEASURE_S]"
against=node
if [[ ${1:-} == --against ]]; then
  against=${2:-}
  shift 2 || true
  [[ $against == c || $against == node ]] || { echo "--against takes c or node; found '$against'" >&2; exit 2; }
fi
[[ $# -ge 1 ]] || { echo "$usage" >&2; exit 2; }
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
command -v python3 >/dev/null || { echo "python3 not found; expected it on the PATH" >&2; exit 2; }
version="$(sed -n 's:.*<onnxruntime.version>\(.*\)</onnxruntime.version>.*:\1:p' "$root/pom.xml")"

if [[ $against == c ]]; then
  command -v cc >/dev/null || { echo "cc not found; expected a C compiler for --against c" >&2; exit 2; }
  cdir="$root/target/c-ort"
  lib="$cdir/libonnxruntime.so" loop="$cdir/loop"
  mkdir -p "$cdir"
  if [[ ! -f $lib || $jar -nt $lib ]]; then
    unzip -p "$jar" ai/onnxruntime/native/linux-x64/libonnxruntime.so > "$lib.tmp" && mv "$lib.tmp" "$lib" \
      || { echo "no ai/onnxruntime/native/linux-x64/libonnxruntime.so in $jar; expected ONNX Runtime's jar inside" >&2
           exit 2; }
  fi
  if [[ ! -x $loop || $root/tools/tpot-crosscheck/loop.c -nt $loop ]]; then
    cc -O2 -o "$loop" "$root/tools/tpot-crosscheck/loop.c" -ldl -lm
  fi
  other="C API"
else
  command -v node >/dev/null && command -v npm >/dev/null \
    || { echo "node and npm not found; expected Node.js 18+ for --against node" >&2; exit 2; }
  prefix="$root/target/node-ort"
  modules="$prefix/node_modules"
  installed="$(node -p "try { require('$modules/onnxruntime-node/package.json').version } catch (e) { '' }")"
  if [[ "$installed" != "$version" ]]; then
    echo "[tpot-crosscheck] installing onnxruntime-node@$version into $prefix (build-time step; no download after it)"
    mkdir -p "$prefix"
    ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error \
      "onnxruntime-node@$version" >&2
  fi
  other="node $(node --version)"
fi
work="$root/results/tpot-crosscheck/$(date -u +%Y%m%dT%H%M%S)"
mkdir -p "$work"
echo "[tpot-crosscheck] $model: batch 1, prompt $prompt, output $output, threads $threads; $rounds rounds of" \
  "${warmup}s warm-up + ${measure}s measured per side; ORT $version (Java binding in the harness; $other)"
echo "[tpot-crosscheck] machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(nproc) cores;" \
  "$(java -version 2>&1 | head -1)"

figures() { # JSON file -> "MEAN MEDIAN CHOICE" ms: mean TPOT over the measured requests, median of the 1 s windows'
  # TPOTs, mean time of a one-token step's argmax
  python3 -c 'import json, statistics, sys; d = json.load(open(sys.argv[1]))
print(d["tpotMs"], statistics.median(d["windowTpotMs"]), d["choiceMs"])' "$1"
}
run_other() { # round -> "MEAN MEDIAN CHOICE" ms
  if [[ $against == c ]]; then
    "$loop" "$lib" "$model" "$prompt" "$output" "$threads" "$warmup" "$measure" \
      > "$work/$against-$1.json" 2> "$work/$against-$1.log" || { cat "$work/$against-$1.log" >&2; exit 1; }
  else
    node "$root/tools/tpot-crosscheck/loop.js" "$modules" "$model" "$prompt" "$output" "$threads" "$warmup" \
      "$measure" > "$work/$against-$1.json" 2> "$work/$against-$1.log" || { cat "$work/$against-$1.log" >&2; exit 1; }
  fi
  figures "$work/$against-$1.json"
}
run_java() { # round -> "MEAN MEDIAN CHOICE" ms: the one fork's gen.tpot (the mean over its measured iterations, each
  # the mean over its requests), the median of its iterations' gen.tpot, and its gen.choice
  java -jar "$jar" GenerationBenchmark -p "model=$model" -p batchSize=1 -p "promptLen=$prompt" \
    -p "outputLen=$output" -p "threads=$threads" -f 1 -wi "$warmup" -w 1s -i "$measure" -r 1s \
    --run-dir "$work/java-$1" > "$work/java-$1.log" 2>&1 || { tail -5 "$work/java-$1.log" >&2; exit 1; }
  python3 - "$work/java-$1/jmh-result.json" <<'PY'
import json, statistics, sys
rows = json.load(open(sys.argv[1]))
m = rows[0].get("secondaryMetrics", {}) if rows else {}
if "gen.tpot" not in m or "gen.choice" not in m:
    sys.exit("no gen.tpot or gen.choice in " + sys.argv[1])
print(m["gen.tpot"]["score"], statistics.median(x for fork in m["gen.tpot"]["rawData"] for x in fork),
      m["gen.choice"]["score"])
PY
}
other_tpot=() java_tpot=()
for ((i = 1; i <= rounds; i++)); do
  if (( i % 2 )); then
    o="$(run_other "$i")"; j="$(run_java "$i")"; order="$against, java"
  else
    j="$(run_java "$i")"; o="$(run_other "$i")"; order="java, $against"
  fi
  other_tpot+=("${o// /,}"); java_tpot+=("${j// /,}")
  python3 - "$i" "$order" "$against" "$o" "$j" <<'PY'
import sys
i, order, name, o, j = sys.argv[1:]
o, j = [float(x) for x in o.split()], [float(x) for x in j.split()]
print(f"[tpot-crosscheck] round {i} ({order}): TPOT {name} {o[0]:.4f} ms, harness {j[0]:.4f} ms, harness/{name}"
      f" {j[0] / o[0]:.4f}; median of 1 s windows {o[1]:.4f} / {j[1]:.4f} ({j[1] / o[1]:.4f});"
      f" argmax {o[2] * 1e3:.1f} / {j[2] * 1e3:.1f} us")
PY
done
python3 - "$against" "${other_tpot[*]}" "${java_tpot[*]}" <<'PY'
import statistics, sys
name = sys.argv[1]
other = [[float(x) for x in r.split(",")] for r in sys.argv[2].split()]
java = [[float(x) for x in r.split(",")] for r in sys.argv[3].split()]
med = statistics.median
for what, f in (("TPOT, mean over the measured time", lambda r: r[0]),
                ("TPOT, median of the 1 s windows", lambda r: r[1]),
                ("the step less its argmax (TPOT mean - argmax)", lambda r: r[0] - r[2])):
    o, j = [f(r) for r in other], [f(r) for r in java]
    ratios = [a / b for a, b in zip(j, o)]
    print(f"{what}, median over {len(o)} rounds: {name} {med(o):.4f} ms, harness {med(j):.4f} ms")
    print(f"  harness / {name}: {med(ratios):.4f} (median of the rounds' ratios; range {min(ratios):.4f}"
          f"-{max(ratios):.4f}), ratio of the medians {med(j) / med(o):.4f}")
PY
echo "[tpot-crosscheck] every round's output in $work"
