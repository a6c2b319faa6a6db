#!/usr/bin/env bash
# The jar's power-ledger (java -jar target/benchmarks.jar power-ledger --help), run from the checkout's root.
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
cd "$(dirname "$0")/.." && exec java -jar target/benchmarks.jar power-ledger "$@"
