#!/usr/bin/env bash
# What GenerationBenchmark adds to ONNX Runtime's Java binding per output token, in one JVM (docs/generation.md).
# usage: tools/step-check.sh MODEL [PROMPT_LEN=32] [OUTPUT_LEN=64] [ROUNDS=400]
cd "$(dirname "$0")/.." && exec java -jar target/benchmarks.jar calibrate step-check "$@"
