#!/usr/bin/env bash
# Holds the injected-slowdown aid (-Dinferbench.slowdown=P) to its label on one cell, in one JVM: the cell (batch 1,
# one intra-op thread, on ort) is called through the benchmark's own method in blocks of equal length, aid off and
# aid on in turn (ABBA) for 1,600 rounds after a 5 s warm-up, and the time per measured call on / off is given with its
# paired 99 % interval, beside the share of extra calls the aid made (counted). About 90 s; the model file must exist
# (a run of the cell makes zoo models). Nothing else should be measuring at the time.
#
# Exit 0: the interval lies within half a point of 1 + P/100; 1: it lies outside; 3: too wide to tell; 2: bad input.
#
# usage: tools/aid-check.sh MODEL PERCENT      e.g. tools/aid-check.sh mlp-tiny 3
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: tools/aid-check.sh MODEL PERCENT (e.g. tools/aid-check.sh mlp-tiny 3)" >&2; exit 2; }
cd "$(dirname "$0")/.."
[[ -f target/benchmarks.jar ]] || { echo "target/benchmarks.jar is missing; expected it built first (mvn -q package -DskipTests)" >&2; exit 2; }
exec java -Dai.djl.offline=true -cp target/benchmarks.jar dev.inferbench.bench.AidCheck "$1" "$2"
