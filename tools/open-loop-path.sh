#!/usr/bin/env bash
# The open loop's own path from a request's time to its call, fresh JVMs cold and rehearsed in turn
# (docs/evidence/calibration.md#the-open-loops-resolution).
# usage: tools/open-loop-path.sh [ROUNDS, default 2]
cd "$(dirname "$0")/.." && exec java -jar target/benchmarks.jar calibrate open-loop-path "$@"
