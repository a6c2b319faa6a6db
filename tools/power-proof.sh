#!/usr/bin/env bash
# What a comparison of two builds can see on this machine, mode by mode, measured side by side: rounds of A/A
# comparisons (this checkout against itself, or a slowdown injected on the head side) through
# tools/compare-commits.sh, one per mode per round, the modes taking turns so that the machine's drift over the
# session hits every mode alike. Each comparison runs for --minutes; from its forks the script reads the spread of
# the per-pair log ratios (paired) and of the two sides taken apart (Welch, `compare --unpaired` on the same forks)
# and the wall time a pair took, and prints, per mode, the smallest slowdown a comparison of --budget minutes would
# find with 95 % power at the gate's 99 % (t quantiles), the median over the rounds, beside the verdicts and exit
# codes the comparisons themselves gave.
#
# usage: tools/power-proof.sh [--rounds 2] [--minutes 3] [--budget 10] [--modes interleaved,pin,duet,turns]
#                             [--slowdown P] [--out DIR] [JMH args; default: mlp-tiny, batch 1, threads 1]
#   interleaved: forks A, B, A, B ... unpinned (the plain compare-commits), read both unpaired (Welch, the analysis
#                before the paired one) and paired; pin: the same on CPU 0 (--pin); duet: both at once, a CPU each (--duet);
#                turns: both forks of a pair alive at once, one iteration each in turn (--turns), asked for by --modes
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=2 minutes=3 budget=10 modes=interleaved,pin,duet slowdown="" out="" jmh=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --slowdown) slowdown=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) jmh+=("$1"); shift ;;
  esac
done
die() { echo "power-proof: $*" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds '$rounds' is not a whole number >= 1"
[[ $minutes =~ ^[1-9][0-9]*$ && $budget =~ ^[1-9][0-9]*$ ]] || die "--minutes and --budget are whole minutes >= 1"
[[ ${#jmh[@]} -gt 0 ]] || jmh=(-p model=mlp-tiny -p batchSize=1 -p threads=1 -wi 1 -w 500ms -i 2 -r 500ms)
[[ -f target/benchmarks.jar ]] || die "build this checkout first: mvn -q package -DskipTests"
IFS=, read -r -a mode_list <<<"$modes"
for m in "${mode_list[@]}"; do [[ $m =~ ^(interleaved|pin|duet|turns)$ ]] || die "unknown mode '$m'; expected interleaved, pin, duet or turns"; done
out=${out:-results/power-proof-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"; out=$(cd "$out" && pwd)
extra=()
[[ -n $slowdown ]] && extra=(--head-args "-jvmArgsAppend -Dinferbench.slowdown=$slowdown")
printf 'mode\tround\texit\tseconds\tfolder\n' >"$out/comparisons.tsv"
echo "[power-proof] $rounds rounds of ${modes//,/, } (${minutes} min each) of: ${jmh[*]}${slowdown:+; head slowed by $slowdown %}; in $out"
for ((r = 1; r <= rounds; r++)); do
  for m in "${mode_list[@]}"; do
    flags=()
    [[ $m == pin ]] && flags=(--pin)
    [[ $m == duet ]] && flags=(--duet)
    [[ $m == turns ]] && flags=(--turns)
    t0=$(date +%s) rc=0
    tools/compare-commits.sh . . "${jmh[@]}" "${flags[@]}" "${extra[@]}" --forks 500 --budget "${minutes}m" \
      --fail-on-regression --out "$out/$m-$r" >"$out/$m-$r.log" 2>&1 || rc=$?
    printf '%s\t%d\t%d\t%d\t%s\n' "$m" "$r" "$rc" $(( $(date +%s) - t0 )) "$out/$m-$r" | tee -a "$out/comparisons.tsv"
  done
done

for f in $(tail -n +2 "$out/comparisons.tsv" | cut -f5); do
  java -jar target/benchmarks.jar compare "$f/base" "$f/head" --format json >"$f/paired.json" 2>/dev/null || true
  java -jar target/benchmarks.jar compare "$f/base" "$f/head" --format json --unpaired >"$f/unpaired.json" 2>/dev/null || true
done
python3 - "$out/comparisons.tsv" "$budget" <<'PY'
import csv, json, math, sys, statistics
from scipy.stats import t as student
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
budget_s = int(sys.argv[2]) * 60
def primary(path):
    try:
        doc = json.load(open(path))
        row = next(r for r in doc["comparisons"] if r["metric"] in ("time", "throughput"))
        row["ratio"]["confidence"] = doc["confidence"]
        return row
    except (OSError, ValueError, StopIteration):
        return None
def visible(row, df_now, df_then, n_now, n_then):
    """the 95 %-power change of a comparison with n_then units, from this one's interval over n_now units"""
    lo, hi, conf = row["ratio"]["lower"], row["ratio"]["upper"], row["ratio"]["confidence"]
    sd = (math.log(hi) - math.log(lo)) / 2 / student.ppf(1 - (1 - conf) / 2, df_now) * math.sqrt(n_now)
    q = student.ppf(1 - (1 - conf) / 2, df_then) + student.ppf(0.95, df_then)
    return math.exp(sd / math.sqrt(n_then) * q) - 1, sd
table = {}
for r in rows:
    p, u = primary(r["folder"] + "/paired.json"), primary(r["folder"] + "/unpaired.json")
    if p is None or u is None or not isinstance(p["ratio"].get("lower"), float):
        print(f"{r['mode']} round {r['round']}: no interval (exit {r['exit']})"); continue
    n = p.get("pairs", u["ratio"]["forks"])
    pair_s = int(r["seconds"]) / n
    n_then = max(2, int(budget_s // pair_s))
    kinds = [("unpaired (Welch)", u, 2 * n - 2, 2 * n_then - 2)] if r["mode"] == "interleaved" else []
    kinds.append(("paired" if p.get("ratioMethod") == "paired" else "unpaired?", p, n - 1, n_then - 1))
    for name, row, df_now, df_then in kinds:
        v, sd = visible(row, df_now, df_then, n, n_then)
        label = f"{r['mode']}, {name}"
        table.setdefault(label, []).append((v, sd, n, pair_s, row["ratio"]["estimate"], row["verdict"], r["exit"]))
        print(f"{label} round {r['round']}: {n} pairs in {r['seconds']} s ({pair_s:.1f} s a pair); ratio "
              f"{row['ratio']['estimate']:.3f} [{row['ratio']['lower']:.3f}, {row['ratio']['upper']:.3f}] {row['verdict']}"
              f" (exit {r['exit']}); sd of log ratio {sd:.3f}; in {budget_s // 60} min: {n_then} pairs, sees {100 * v:.1f} %")
print()
print(f"| mode | comparisons | pairs each | s a pair | sd of a pair's log ratio | sees in {budget_s // 60} min (95 % power, median) |")
print("|---|---|---|---|---|---|")
for label, vals in table.items():
    med = lambda i: statistics.median(x[i] for x in vals)
    print(f"| {label} | {len(vals)} | {med(2):.0f} | {med(3):.1f} | {med(1):.3f} | {100 * med(0):.1f} % |")
PY
