#!/usr/bin/env bash
# Holds the injected-slowdown aid (-Dinferbench.slowdown=P) to its label on one cell, in one JVM, with none of a
# comparison's fork-to-fork spread: the cell (batch 1, one intra-op thread, on ort) is called in blocks of equal
# length, three a round in every order in turn, for ROUNDS rounds (default 1,600) after a 5 s warm-up: the aid on and
# off through the benchmark's own method, and off through a copy of it compiled as a base fork's code is (it never
# sees an extra call). It prints the share of extra calls the aid made (counted) and the time per measured call
# on / off through the same code and on / off-as-a-base (what a comparison sees), each with its paired 99 % interval.
# About 2 minutes at the default, a minute more per 800 rounds; the model file must exist (a run of the cell makes zoo
# models). Nothing else should be measuring at the time.
#
# Exit 0: the on / off-as-a-base interval lies within half a point of 1 + P/100; 1: it lies outside; 3: too wide to tell; 2: bad input.
#
# usage: tools/aid-check.sh MODEL PERCENT [ROUNDS]      e.g. tools/aid-check.sh mlp-tiny 3
set -euo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
[[ $# -eq 2 || $# -eq 3 ]] || { echo "usage: tools/aid-check.sh MODEL PERCENT [ROUNDS] (e.g. tools/aid-check.sh mlp-tiny 3)" >&2; exit 2; }
cd "$(dirname "$0")/.."
[[ -f target/benchmarks.jar ]] || { echo "target/benchmarks.jar is missing; expected it built first (mvn -q package -DskipTests)" >&2; exit 2; }
exec java -Dai.djl.offline=true -cp target/benchmarks.jar dev.inferbench.bench.AidCheck "$@"
