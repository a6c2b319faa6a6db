#!/usr/bin/env bash
# The gate's power and false-alarm rate, measured on real comparisons instead of projected: each run of this script
# makes COUNT comparisons of this checkout against itself through tools/compare-commits.sh at the README's CI
# settings (--precision 2% --fail-on-regression, the budget given), with the slowdown aid planting P % on the head
# side (0: an A/A comparison), and appends one line per comparison to the ledger as soon as it ends, so that an
# interrupted proof loses nothing and proofs spread over days add up. --summary prints, per cell and planted
# slowdown, how many comparisons failed the gate, with the exact (Clopper-Pearson) 95 % interval of that rate.
#
# usage: tools/power-ledger.sh --cell resnet50|mlp-tiny --slowdown P [--count N] [--budget 10m] [--turns] [--keep]
#                               [--ledger FILE]
#        tools/power-ledger.sh --summary [--since COMMIT] [--ledger FILE]
#   --since COMMIT: the summary counts only comparisons made at COMMIT or a commit after it (e.g. the one that changed
#   the gate's interval), so that a count never mixes two designs of the gate
#   --turns: the comparisons run their pairs in turns (compare-commits --turns); the ledger's mode column says which
#   --keep: keeps each comparison's folder (its forks, pair order and turn records) instead of deleting it
#   resnet50: resnet50 batch 1, threads=1, -wi 1 -w 1s -i 2 -r 1s; mlp-tiny: batch 1, threads=1, -wi 1 -w 500ms -i 2
#   -r 500ms; with --turns -i 6 instead of -i 2. The ledger (default docs/evidence/power-ledger.tsv) is tab-separated
#   with a header line; a comparison that ends in anything but a verdict (exit 0, 1 or 3) is written with its exit code
#   and counted apart.
set -euo pipefail
cd "$(dirname "$0")/.."
cell="" slowdown="" count=1 budget=10m ledger=docs/evidence/power-ledger.tsv summary="" mode=interleaved keep="" since=""
die() { echo "power-ledger: $*" >&2; exit 2; }
while [[ $# -gt 0 ]]; do
  case $1 in
    --cell) cell=${2:-}; shift 2 || die "--cell needs resnet50 or mlp-tiny" ;;
    --slowdown) slowdown=${2:-}; shift 2 || die "--slowdown needs a whole percent" ;;
    --count) count=${2:-}; shift 2 || die "--count needs a number" ;;
    --budget) budget=${2:-}; shift 2 || die "--budget needs minutes, e.g. 10m" ;;
    --ledger) ledger=${2:-}; shift 2 || die "--ledger needs a file" ;;
    --summary) summary=1; shift ;;
    --since) since=${2:-}; shift 2 || die "--since needs a commit" ;;
    --turns) mode=turns; shift ;;
    --keep) keep=1; shift ;;
    *) die "unknown argument '$1'; expected --cell, --slowdown, --count, --budget, --turns, --keep, --ledger, --summary or --since" ;;
  esac
done
header=$'when\tcommit\tcell\tslowdown_pct\tbudget\tpairs\tratio\tlower\tupper\tverdict\texit\tdisturbed_left_out\tmachine\tmode'

summarize() {
  [[ -f $ledger ]] || die "no ledger at $ledger; expected a file this script wrote"
  local kept="*" c
  if [[ -n $since ]]; then
    git rev-parse --verify --quiet "$since^{commit}" >/dev/null || die "--since '$since' is not a commit of this repository"
    kept=""
    for c in $(tail -n +2 "$ledger" | cut -f2 | sort -u); do
      git merge-base --is-ancestor "$since" "$c" 2>/dev/null && kept+=" $c"
    done
    echo "power-ledger: counting only comparisons made at $since or after it"
  fi
  python3 - "$ledger" "$kept" <<'PY'
import csv, math, sys
from collections import defaultdict

def binom_cdf(k, n, p):
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))

def clopper_pearson(k, n, conf=0.95):
    """Exact interval of a binomial rate: bisection on the binomial tails."""
    a = (1 - conf) / 2
    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if f(mid):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    lower = 0.0 if k == 0 else solve(lambda p: 1 - binom_cdf(k - 1, n, p) < a)
    upper = 1.0 if k == n else solve(lambda p: binom_cdf(k, n, p) > a)
    return lower, upper

groups = defaultdict(list)
kept = None if sys.argv[2] == "*" else set(sys.argv[2].split())
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        if kept is not None and row["commit"] not in kept:
            continue
        groups[(row["cell"], row["mode"], int(row["slowdown_pct"]), row["budget"])].append(row)
if not groups:
    print("power-ledger: the ledger has no comparisons yet")
for (cell, mode, pct, budget), rows in sorted(groups.items()):
    verdicts = [r for r in rows if r["exit"] in ("0", "1", "3")]
    failed = sum(r["exit"] == "1" for r in verdicts)
    unsure = sum(r["exit"] == "3" for r in verdicts)
    other = len(rows) - len(verdicts)
    n = len(verdicts)
    what = "A/A" if pct == 0 else f"+{pct} % planted"
    if n == 0:
        print(f"{cell}, {mode}, {what}, budget {budget}: no comparison ended in a verdict ({other} ended otherwise)")
        continue
    lo, hi = clopper_pearson(failed, n)
    pairs = sorted(int(r["pairs"]) for r in verdicts if r["pairs"].isdigit())
    median = pairs[len(pairs) // 2] if pairs else "n/a"
    print(f"{cell}, {mode}, {what}, budget {budget}: {failed} of {n} failed the gate ({100 * failed / n:.0f} %; exact 95 %"
          f" interval {100 * lo:.1f}-{100 * hi:.1f} %); {unsure} could not tell; {other} ended otherwise;"
          f" pairs: median {median}")
PY
}

if [[ -n $summary ]]; then summarize; exit 0; fi
# in turns a pair's two sides run seconds apart, so what is left of its spread is the calls' own noise, which more
# measured iterations per fork average down at no extra JVM start: six a fork instead of two
iterations=$([[ $mode == turns ]] && echo 6 || echo 2)
case $cell in
  resnet50) jmh=(-p model=resnet50 -p batchSize=1 -p threads=1 -wi 1 -w 1s -i "$iterations" -r 1s) ;;
  mlp-tiny) jmh=(-p model=mlp-tiny -p batchSize=1 -p threads=1 -wi 1 -w 500ms -i "$iterations" -r 500ms) ;;
  *) die "--cell '$cell' is not resnet50 or mlp-tiny" ;;
esac
[[ $slowdown =~ ^[0-9]+$ && $slowdown -le 50 ]] || die "--slowdown '$slowdown' is not a whole percent from 0 to 50"
[[ $count =~ ^[1-9][0-9]*$ ]] || die "--count '$count' is not a whole number >= 1"
[[ $budget =~ ^[1-9][0-9]*m$ ]] || die "--budget '$budget' is not whole minutes, e.g. 10m"
[[ -f target/benchmarks.jar ]] || die "build this checkout first: mvn -q package -DskipTests"
[[ -f $ledger ]] || printf '%s\n' "$header" >"$ledger"
[[ $(head -1 "$ledger") == "$header" ]] || die "$ledger does not start with this script's header; expected a ledger it wrote"
machine=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
machine="$(nproc) cores, ${machine:-unknown CPU}$(grep -q avx512f /proc/cpuinfo && echo ', AVX-512' || true)"
commit=$(git rev-parse --short=12 HEAD)
extra=()
[[ $slowdown -gt 0 ]] && extra=(--head-args "-jvmArgsAppend -Dinferbench.slowdown=$slowdown")
[[ $mode == turns ]] && extra+=(--turns)
for ((i = 1; i <= count; i++)); do
  out=$(mktemp -d "${TMPDIR:-/tmp}/power-ledger.XXXXXX")
  seed=$(( $(date +%s) % 100000 + i ))
  echo "[power-ledger] comparison $i of $count: $cell, $mode, ${slowdown} % planted, budget $budget, seed $seed; in $out"
  rc=0
  tools/compare-commits.sh . . "${jmh[@]}" --precision 2% --budget "$budget" --fail-on-regression --seed "$seed" \
    "${extra[@]}" --out "$out" >"$out.log" 2>&1 || rc=$?
  line=$(java -jar target/benchmarks.jar compare "$out/base" "$out/head" --precision 2% --pilot 8 --format json \
    2>/dev/null | python3 -c '
import json, sys
try:
    rows = [r for r in json.load(sys.stdin)["comparisons"] if "gate" in r]
except Exception:
    rows = []
if not rows:
    print("\t".join(["n/a"] * 6))
else:
    r = rows[0]
    ratio = r["ratio"]
    f = lambda v: "n/a" if v is None else "%.4f" % v
    print("\t".join([str(r.get("pairs", "n/a")), f(ratio["estimate"]), f(ratio["lower"]), f(ratio["upper"]),
                     r["verdict"], str(r.get("disturbed", "n/a"))]))
' || printf 'n/a\tn/a\tn/a\tn/a\tn/a\tn/a')
  IFS=$'\t' read -r pairs ratio lower upper verdict disturbed <<<"$line"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$cell" \
    "$slowdown" "$budget" "$pairs" "$ratio" "$lower" "$upper" "$verdict" "$rc" "$disturbed" "$machine" "$mode" >>"$ledger"
  echo "[power-ledger] exit $rc: ratio $ratio [$lower, $upper], $pairs pairs, $disturbed disturbed left out ($verdict)"
  [[ -n $keep ]] || rm -rf "$out"
done
summarize
