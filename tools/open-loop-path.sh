#!/usr/bin/env bash
# The open loop's own path from a request's time to its call (docs/evidence/calibration.md#the-open-loops-resolution):
# ROUNDS rounds (default 2) of a fresh JVM whose steps run cold, then one whose steps follow the fork's open-loop
# warm-up, interleaved. Needs the build (mvn -q package -DskipTests).
# usage: tools/open-loop-path.sh [ROUNDS]
set -euo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
cd "$(dirname "$0")/.."
rounds=${1:-2}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "open-loop-path: ROUNDS '$rounds' is not a whole number >= 1" >&2; exit 2; }
[[ -d target/classes/dev/inferbench/serve ]] || { echo "open-loop-path: no build in target/classes; expected mvn -q package -DskipTests first" >&2; exit 2; }
out=target/open-loop-path
mkdir -p "$out"
javac -d "$out" -cp target/classes tools/open-loop-path/OpenLoopPath.java
for ((r = 1; r <= rounds; r++)); do
  for mode in cold rehearsed; do
    java -cp "target/classes:$out" OpenLoopPath "$mode"
  done
done
