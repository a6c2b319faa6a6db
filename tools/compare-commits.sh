#!/usr/bin/env bash
# compare-commits is the jar's: java -jar target/benchmarks.jar compare-commits --help (build it first:
# mvn -q package -DskipTests). This wrapper runs this checkout's jar with INFERBENCH_JAVA_OPTS.
set -euo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
jar=$(git rev-parse --show-toplevel 2>/dev/null || cd "$(dirname "$0")/.." && pwd)/target/benchmarks.jar
exec java ${INFERBENCH_JAVA_OPTS:-} -jar "$jar" compare-commits "$@"
