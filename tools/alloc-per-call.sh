#!/usr/bin/env bash
# Every Java heap byte of one inference call, and by class and the site that allocated it (async-profiler's
# allocation samples over a counted number of warm calls on one thread), with the allocation flame graph of those calls.
# The total per call is exact (the thread's allocated bytes over a counted number of calls); the split by site comes
# from async-profiler's allocation samples, taken when a TLAB fills, so it needs many calls: a 20 ms call's few
# hundred bytes fill no TLAB in two seconds and get no site.
# The model file must exist (a run of the cell makes zoo models). Output in results/alloc/MODEL-bBATCH-ENGINE/.
#
# usage: tools/alloc-per-call.sh MODEL [BATCH, default 1] [ENGINE, default ort]
set -euo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
[[ $# -ge 1 ]] || { echo "usage: tools/alloc-per-call.sh MODEL [BATCH] [ENGINE]" >&2; exit 2; }
cd "$(dirname "$0")/.."
out="results/alloc/$1-b${2:-1}-${3:-ort}"
exec java -Dai.djl.offline=true -cp target/benchmarks.jar dev.inferbench.profile.AllocPerCall "$out" "$1" "${2:-1}" "${3:-ort}"
