#!/usr/bin/env bash
# Each cell's variance components (between forks, within a fork) and the forks x iterations split that gives the
# narrowest interval in a time budget (Kalibera & Jones), from a run folder. This is how the run.* defaults in
# benchmarks.properties were chosen.
#
# usage: tools/variance-components.sh results/RUN [BUDGET, default 5m]
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: tools/variance-components.sh results/RUN [BUDGET]" >&2; exit 2; }
run=$(cd "$1" && pwd) || exit 2
cd "$(dirname "$0")/.."
exec java -jar target/benchmarks.jar variance "$run" --budget "${2:-5m}"
