#!/usr/bin/env bash
# The jar's compare-commits (java -jar target/benchmarks.jar compare-commits --help), with INFERBENCH_JAVA_OPTS.
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
jar=$(git rev-parse --show-toplevel 2>/dev/null || cd "$(dirname "$0")/.." && pwd)/target/benchmarks.jar
exec java ${INFERBENCH_JAVA_OPTS:-} -jar "$jar" compare-commits "$@"
