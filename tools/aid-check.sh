#!/usr/bin/env bash
# The injected-slowdown aid held to its label on one cell, in one JVM (docs/statistics.md, "Calibration aid").
# usage: tools/aid-check.sh MODEL PERCENT [ROUNDS]      e.g. tools/aid-check.sh mlp-tiny 3
cd "$(dirname "$0")/.." && exec java -jar target/benchmarks.jar calibrate aid-check "$@"
