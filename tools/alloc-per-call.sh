#!/usr/bin/env bash
# Every Java heap byte of one inference call, by site, in results/alloc/MODEL-bBATCH-ENGINE/ (docs/metrics.md).
# usage: tools/alloc-per-call.sh MODEL [BATCH, default 1] [ENGINE, default ort]
cd "$(dirname "$0")/.." && exec java -jar target/benchmarks.jar calibrate alloc-per-call "$@"
