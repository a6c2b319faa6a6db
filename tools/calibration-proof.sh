#!/usr/bin/env bash
# Proof on this machine that compare's verdicts hold: an A/A comparison (this checkout against itself, forks
# interleaved) should flag almost no cell, and an injected slowdown (-Dinferbench.slowdown=S on one side, see
# docs/statistics.md, "Calibration aid") should be flagged in most cells. Prints how many cells each flagged, on the mean time.
# The synthetic counterpart with known truth and thousands of cells is PowerTest (mvn test -Dtest=PowerTest).
#
# usage: tools/calibration-proof.sh [--forks N] [--slowdown S] [JMH args; default: two tiny models x 3 batch sizes]
set -euo pipefail
cd "$(dirname "$0")/.."
forks=5 slowdown=10 jmh=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --forks) forks=$2; shift 2 ;;
    --slowdown) slowdown=$2; shift 2 ;;
    *) jmh+=("$1"); shift ;;
  esac
done
[[ ${#jmh[@]} -gt 0 ]] || jmh=(-p model=mlp-tiny,resnet-tiny -p batchSize=1,4,16 -p threads=1 -wi 1 -w 500ms -i 3 -r 500ms)
stamp=$(date +%Y%m%d-%H%M%S)
flagged() { # compare JSON on stdin -> "flagged of cells" on the primary metric
  python3 -c 'import json,sys
rows=[r for r in json.load(sys.stdin)["comparisons"] if r["metric"] in ("time","throughput")]
print(sum(r["verdict"] in ("slower","faster") for r in rows), "of", len(rows), "cells flagged:",
      ", ".join(sorted({r["verdict"] for r in rows})))'
}
run() { # name, extra args for compare-commits
  local name=$1; shift
  tools/compare-commits.sh . . "${jmh[@]}" --forks "$forks" --out "results/$name-$stamp" "$@" >"results/$name-$stamp.log" 2>&1 || true
  java -jar target/benchmarks.jar compare "results/$name-$stamp/base" "results/$name-$stamp/head" --format json | flagged
}
echo "A/A ($forks forks per side): $(run aa)"
echo "$slowdown% slowdown ($forks forks per side): $(run slowdown --head-args "-jvmArgsAppend -Dinferbench.slowdown=$slowdown")"
