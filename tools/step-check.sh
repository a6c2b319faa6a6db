#!/usr/bin/env bash
# What GenerationBenchmark adds to ONNX Runtime's Java binding per output token, in one JVM: greedy requests through
# the harness's own request and through a bare loop on the binding alone (written in StepCheck, nothing of the harness),
# alternating, each on its own session of the same decoder; TPOT both ways and harness / bare with its paired 99 %
# interval. Exit 0: the harness adds under 1 % to the binding's step; 1: more, or the two chose different tokens;
# 3: cannot tell (run again or longer); 2: bad input. See docs/generation.md.
#
# usage: tools/step-check.sh MODEL [PROMPT_LEN=32] [OUTPUT_LEN=64] [ROUNDS=400]
#   MODEL: a decoder's .onnx file in Optimum's layout, or a zoo decoder (llama-tiny) made by a run first
# Run it alone on the machine: on a shared machine hold its CPU lock around it.
set -euo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)
[[ $# -ge 1 && $# -le 4 ]] || { echo "usage: tools/step-check.sh MODEL [PROMPT_LEN] [OUTPUT_LEN] [ROUNDS] (e.g. tools/step-check.sh llama-tiny)" >&2; exit 2; }
cd "$(dirname "$0")/.."
[[ -f target/benchmarks.jar ]] || { echo "target/benchmarks.jar is missing; expected it built first (mvn -q package -DskipTests)" >&2; exit 2; }
exec java -Dai.djl.offline=true -cp target/benchmarks.jar dev.inferbench.bench.StepCheck "$@"
