#!/usr/bin/env bash
# The gate's real false-alarm rate on this machine, measured as the README's CI example runs it: one commit built
# twice (two worktrees, two jars), then N interleaved A/A comparisons of a small cell with
#   tools/compare-commits.sh A B <cell> --precision 2% --budget B --fail-on-regression
# (the sides swap every other comparison), counting the comparisons that failed the gate (exit 1) and those whose
# primary verdict read slower or faster; then M comparisons with a 10 % slowdown injected on the head side
# (-Dinferbench.slowdown=10, docs/statistics.md "Calibration aid"), counting those the gate caught. Prints each
# comparison as it ends and, at the end, the share flagged with its exact (Clopper-Pearson) 95 % upper bound.
#
# usage: tools/aa-proof.sh [--comparisons N] [--slowdowns M] [--commit C] [--budget 3m] [--precision 2%] [--offline]
#                          [JMH args; default: mlp-tiny, batch 1, 1 x 500 ms warm-up, 2 x 500 ms]
# AA_EACH=CMD runs each comparison under CMD (e.g. a lock that keeps other measurements on a shared machine out of it)
set -euo pipefail
cd "$(dirname "$0")/.."
n=30 m=5 commit=HEAD budget=3m precision=2% jmh=() offline=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --comparisons) n=$2; shift 2 ;;
    --slowdowns) m=$2; shift 2 ;;
    --commit) commit=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --precision) precision=$2; shift 2 ;;
    --offline) offline=-o; shift ;; # build with mvn -o (as the README builds, resolving what it needs, otherwise)
    *) jmh+=("$1"); shift ;;
  esac
done
[[ ${#jmh[@]} -gt 0 ]] || jmh=(-p model=mlp-tiny -p batchSize=1 -wi 1 -w 500ms -i 2 -r 500ms)
[[ -f target/benchmarks.jar ]] || { echo "aa-proof: build this checkout first: mvn -q package -DskipTests" >&2; exit 2; }
sha=$(git rev-parse --verify --quiet "$commit^{commit}") || { echo "aa-proof: unknown commit '$commit'" >&2; exit 2; }
out=results/aa-proof-$(date +%Y%m%d-%H%M%S)-${sha:0:7}
mkdir -p "$out"; out=$(cd "$out" && pwd)
trees=$(mktemp -d)
cleanup() { for t in a b; do git worktree remove --force "$trees/$t" >/dev/null 2>&1 || true; done; rm -rf "$trees"; }
trap cleanup EXIT
for t in a b; do
  git worktree add --detach --quiet "$trees/$t" "$sha"
  echo "[aa-proof] building ${sha:0:7} ($t) ..."
  (cd "$trees/$t" && mvn -q $offline package -DskipTests >"$out/build-$t.log" 2>&1) \
    || { echo "aa-proof: ${sha:0:7} does not build; see $out/build-$t.log" >&2; exit 2; }
done

# models the cells need are generated into each tree's models/ on first use; share this checkout's instead
for t in a b; do rm -rf "$trees/$t/models"; ln -s "$PWD/models" "$trees/$t/models"; done

verdict() { # compare JSON of a comparison folder -> the primary rows' verdicts
  java -jar target/benchmarks.jar compare "$1/base" "$1/head" --format json 2>/dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["comparisons"] if r["metric"] in ("time", "throughput")]
print(",".join(r["verdict"] for r in rows))' || echo "none"
}
one() { # kind (aa|slow), index
  local kind=$1 i=$2 a=$trees/a b=$trees/b extra=() rc=0
  (( i % 2 == 0 )) && { a=$trees/b; b=$trees/a; }
  [[ $kind == slow ]] && extra=(--head-args "-jvmArgsAppend -Dinferbench.slowdown=10")
  local t0; t0=$(date +%s)
  ${AA_EACH:-} tools/compare-commits.sh "$a" "$b" "${jmh[@]}" --precision "$precision" --budget "$budget" --fail-on-regression \
    "${extra[@]}" --out "$out/$kind-$i" >"$out/$kind-$i.log" 2>&1 || rc=$?
  local pairs; pairs=$(grep -c 'pair .* done' "$out/$kind-$i.log" || true)
  printf '%s\t%d\t%d\t%s\t%d\t%d\n' "$kind" "$i" "$rc" "$(verdict "$out/$kind-$i")" "$pairs" $(( $(date +%s) - t0 )) \
    | tee -a "$out/comparisons.tsv"
}
printf 'kind\ti\texit\tverdict\tpairs\tseconds\n' >"$out/comparisons.tsv"
echo "[aa-proof] $n A/A and $m slowed comparisons of: ${jmh[*]}; --precision $precision --budget $budget; in $out"
for ((i = 1; i <= n; i++)); do one aa "$i"; done
for ((i = 1; i <= m; i++)); do one slow "$i"; done

python3 - "$out/comparisons.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def upper(k, n, conf=0.95):
    # exact one-sided upper bound: the p at which P(X <= k | n, p) = 1 - conf, by bisection
    from math import comb
    lo, hi = k / n, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        cdf = sum(comb(n, j) * mid**j * (1 - mid)**(n - j) for j in range(k + 1))
        lo, hi = (mid, hi) if cdf > 1 - conf else (lo, mid)
    return hi
aa = [r for r in rows if r["kind"] == "aa"]
slow = [r for r in rows if r["kind"] == "slow"]
if aa:
    failed = sum(r["exit"] == "1" for r in aa)
    either = sum(any(v in ("slower", "faster") for v in r["verdict"].split(",")) for r in aa)
    undecided = sum(r["exit"] == "3" for r in aa)
    broken = sum(r["exit"] not in ("0", "1", "3") for r in aa)
    print(f"A/A: {failed} of {len(aa)} comparisons failed the gate ({100 * failed / len(aa):.1f} %; exact 95 % upper bound "
          f"{100 * upper(failed, len(aa)):.1f} %); {either} read slower or faster; {undecided} could not tell (exit 3); "
          f"{broken} ended otherwise; "
          f"pairs per comparison: median {sorted(int(r['pairs']) for r in aa)[len(aa) // 2]}")
if slow:
    found = sum(r["exit"] == "1" for r in slow)
    undecided = sum(r["exit"] == "3" for r in slow)
    print(f"10 % slowdown: {found} of {len(slow)} comparisons failed the gate; {undecided} could not tell (exit 3)")
PY
