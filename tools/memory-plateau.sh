#!/usr/bin/env bash
# Whether a cell's resident set settles: one long fork (1 x 5 s warm-up, N x 10 s measured), its mem.rss in each
# measured iteration (the iteration's time average), the growth from the second iteration to the last, and the fork's
# peak (mem.rss.peak.fork). Exits 1 when the
# set grew by more than the bound after the first measured iteration (warm-up may still settle in it), 0 otherwise.
# This is how a growth of djl-pytorch's resident set (2,157 -> 2,619 MiB over ten iterations, peak 3,673 MiB) was found to be
# the Java heap's young generation filling for the first time, and checked gone (683.5 -> 684.6 MiB, peak 975 MiB).
#
# usage: tools/memory-plateau.sh [--iterations 10] [--bound-mib 16] [--jar target/benchmarks.jar] [JMH args;
#                                default: -p model=resnet50 -p engine=djl-pytorch -p batchSize=1]
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=10 bound=16 jar=target/benchmarks.jar jmh=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --iterations) iterations=$2; shift 2 ;;
    --bound-mib) bound=$2; shift 2 ;;
    --jar) jar=$2; shift 2 ;;
    *) jmh+=("$1"); shift ;;
  esac
done
[[ $iterations =~ ^[0-9]+$ && $iterations -ge 3 ]] || { echo "memory-plateau: --iterations must be 3 or more" >&2; exit 2; }
[[ -f $jar ]] || { echo "memory-plateau: $jar is missing; build first: mvn -q package -DskipTests" >&2; exit 2; }
[[ ${#jmh[@]} -gt 0 ]] || jmh=(-p model=resnet50 -p engine=djl-pytorch -p batchSize=1)
out=$(mktemp -d)
java -jar "$jar" InferenceBenchmark "${jmh[@]}" -f 1 -wi 1 -w 5s -i "$iterations" -r 10s --run-dir "$out/run" \
  >"$out/fork.log" 2>&1 || { tail -5 "$out/fork.log" >&2; echo "memory-plateau: the fork failed; see $out/fork.log" >&2; exit 2; }
awk -v bound="$bound" '
  /^Iteration/ { it = $2 + 0 }
  /mem\.rss:/ { rss[it] = $2 + 0; n = it }
  /mem\.rss\.peak\.fork:/ { peak = $2 + 0 }
  END {
    for (i = 1; i <= n; i++) printf "iteration %2d  mem.rss %8.1f MiB\n", i, rss[i]
    grown = rss[n] - rss[2]
    printf "after the first measured iteration: %+.1f MiB over %d iterations (bound %d MiB); peak %.1f MiB\n",
      grown, n - 2, bound, peak
    exit grown > bound ? 1 : 0
  }' "$out/fork.log"
