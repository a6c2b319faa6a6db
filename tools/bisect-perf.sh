#!/usr/bin/env bash
# The jar's bisect (java -jar target/benchmarks.jar bisect --help), run from the checkout's root; build the jar first.
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
cd "$(dirname "$0")/.." && exec java -jar target/benchmarks.jar bisect "$@"
