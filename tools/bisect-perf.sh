#!/usr/bin/env bash
# Which commit made it slower: `git bisect run` between a good and a bad commit, with tools/compare-commits.sh as the
# oracle. Each step compares GOOD (built once) against the commit under test with the same cell arguments:
# compare-commits exit 1 (slower than GOOD) marks it bad, 0 good; 3 (could not tell) skips the commit (git bisect
# skip); 2 or 4 (bad input, a failure) ends the bisect with one line. The first comparison (BAD against GOOD) that
# could not tell runs once more at twice the budget. Every later step is one comparison, stopped when its interval is
# within half the step's minimum effect (--precision E/2, unless the arguments give --precision or --forks) or at
# three times the budget: it tells a commit with the regression from one without it, and the bisect makes no more
# comparisons than steps. GOOD is first compared against BAD itself, so a range whose end is not shown slower is not
# bisected at all. The bisect runs in a worktree of its own: the checkout it is started from is left as it is.
# At the end it prints the first bad commit with its comparison's gated rows (ratio and interval against GOOD) and its
# "where" tables (the operators and frame groups that changed, docs/statistics.md, "Where").
# Each step's `compare` is this checkout's: build it first (mvn -q package -DskipTests).
#
# usage: tools/bisect-perf.sh <good> <bad> [cell and JMH args...] [--budget 10m] [--min-effect E] [--out DIR] [--offline]
#   --budget B   the first step's budget (compare-commits --budget; default 10m), rerun at 2B if it could not tell;
#                later steps stop at their precision or at 3B. Unless the arguments give --precision or --forks, the
#                first step runs with --precision 2% (the README's CI settings) and later ones with half their minimum
#                effect; with --precision or --forks given, every step runs with them, at B and once more at 2B
#   --min-effect E  the slowdown a step must show to mark a commit bad (passed on to compare-commits). By default the
#                first comparison (BAD against GOOD) runs at compare-commits' 3 % and every later step at half the
#                slowdown that comparison measured (3 % to 50 %): a step asks whether the commit holds the regression,
#                so a commit without it reads "same" (good) at the noise a short budget leaves, not only within 3 %
#   --out DIR    where each step's comparison goes (DIR/step-N, DIR/step-N-again); default results/bisect-<good>-<bad>-<time>
#   --offline    build with mvn -o (passed on to compare-commits)
#   e.g. tools/bisect-perf.sh v1.2 HEAD -p model=mlp-tiny -p batchSize=1 -p threads=1 --budget 5m
# Exit codes: 0 the first bad commit found, 3 none to blame (BAD not shown slower than GOOD, or only skipped commits
# left), 2 bad input or a side that does not build, 4 any other failure.
# INFERBENCH_COMPARE_COMMITS names the oracle (default: this checkout's tools/compare-commits.sh); it is called as
# compare-commits is, and must answer with its exit codes.
set -Eeuo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)

die() { echo "bisect-perf: $*" >&2; exit 2; }
fail() { echo "bisect-perf: $*" >&2; exit 4; }
on_error() { local rc=$?; [[ $BASH_SUBSHELL -eq 0 ]] || exit 4
  echo "bisect-perf: unexpected failure (exit $rc) of: $BASH_COMMAND (line ${BASH_LINENO[0]})" >&2; exit 4; }
trap on_error ERR

self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
seconds() { # 90s, 20m, 1h -> seconds; checked whole before any arithmetic, so no value is ever evaluated
  [[ $1 =~ ^([0-9]{1,7})([smh]?)$ ]] || return 1
  local n=$((10#${BASH_REMATCH[1]}))
  case ${BASH_REMATCH[2]} in h) echo $((n * 3600));; m) echo $((n * 60));; *) echo "$n";; esac
}
gated_rows() { # a comparison's output: its table's header and the rows the gate judged
  grep -E "^cell |(FAIL|pass|can't tell)[[:space:]]*$" "$1" || true
}
where_tables() { # a comparison's output: each "where:" line and the indented lines under it
  awk '/^where: /{on=1; print; next} on && /^  /{print; next} {on=0}' "$1"
}

# One step of `git bisect run`, in the bisect's worktree: its exit code is git bisect's (0 good, 1 bad, 125 skip,
# 255 abort); what it says goes to fd 3, the terminal of the outer script.
if [[ ${1:-} == --as-step ]]; then
  # exit 1 to 127 would read as "bad": whatever fails here unexpectedly ends the bisect instead
  trap 'echo "4 a step failed unexpectedly (exit $?) at: $BASH_COMMAND" >"$BISECT_PERF_DIR/abort"; exit 255' ERR
  IFS=$'\n' read -r -d '' -a args <"$BISECT_PERF_DIR/args" || true
  sha=$(git rev-parse --verify --quiet BISECT_HEAD || git rev-parse HEAD)
  subject=$(git log -1 --format=%s "$sha" | cut -c1-60)
  oracle() { # label budget: one comparison, its exit code
    local n rc=0
    n=$(( $(cat "$BISECT_PERF_DIR/comparisons") + 1 )); echo "$n" >"$BISECT_PERF_DIR/comparisons"
    (cd "$BISECT_PERF_REPO" && "$BISECT_PERF_ORACLE" "$BISECT_PERF_GOOD_DIR" "$sha" "${args[@]}" --budget "$2" \
       --fail-on-regression --out "$BISECT_PERF_OUT/$1" >"$BISECT_PERF_OUT/$1.log" 2>&1) || rc=$?
    echo "$sha $1 $rc" >>"$BISECT_PERF_DIR/steps"
    return "$rc"
  }
  step=$(( $(wc -l <"$BISECT_PERF_DIR/steps") + 1 ))
  rc=0; oracle "step-$step" "${BISECT_PERF_BUDGET}s" || rc=$?
  log=$BISECT_PERF_OUT/step-$step.log
  if [[ $rc -eq 3 && -n ${BISECT_PERF_ONCE:-} ]]; then
    echo "[bisect-perf] ${sha:0:7} $subject: could not tell; skipped" >&3; exit 125
  elif [[ $rc -eq 3 ]]; then
    echo "[bisect-perf] ${sha:0:7} $subject: could not tell; once more at twice the budget" >&3
    rc=0; oracle "step-$step-again" "$(( 2 * BISECT_PERF_BUDGET ))s" || rc=$?
    log=$BISECT_PERF_OUT/step-$step-again.log
  fi
  row=$(gated_rows "$log" | { grep -v '^cell ' || true; } | head -1 | tr -s ' ')
  case $rc in
    0) echo "[bisect-perf] ${sha:0:7} $subject: good ($row)" >&3; exit 0 ;;
    1) echo "[bisect-perf] ${sha:0:7} $subject: bad, slower than good ($row)" >&3; exit 1 ;;
    3) echo "[bisect-perf] ${sha:0:7} $subject: could not tell twice; skipped" >&3; exit 125 ;;
    2) echo "2 the comparison of ${sha:0:7} ended with exit 2: $(grep -m1 'compare-commits:' "$log" || tail -1 "$log")" \
         >"$BISECT_PERF_DIR/abort"; exit 255 ;;
    *) echo "4 the comparison of ${sha:0:7} ended with exit $rc: $(grep -m1 'compare-commits:' "$log" || tail -1 "$log")" \
         >"$BISECT_PERF_DIR/abort"; exit 255 ;;
  esac
fi

if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "$0"; exit 0; fi
[[ $# -ge 2 ]] || die "expected: tools/bisect-perf.sh <good> <bad> [cell and JMH args] [--budget 10m] [--out DIR]"
good=$1 bad=$2; shift 2
budget=10m out="" offline="" args=() paced="" min_effect=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --budget) budget=${2:?--budget needs a value, e.g. 10m}; shift 2 ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --offline) offline=-o; args+=(--offline); shift ;;
    --fail-on-regression) shift ;; # every step fails on a regression: that is the oracle's answer
    --precision|--forks) paced=1; args+=("$1" "${2:?$1 needs a value}"); shift 2 ;;
    --min-effect) min_effect=${2:?--min-effect needs a value, e.g. 10%}; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
budget_s=$(seconds "$budget") || die "--budget '$budget' is not a duration; expected e.g. 90s, 20m, 1h"
[[ $budget_s -gt 0 ]] || die "--budget '$budget' is not a duration; expected e.g. 90s, 20m, 1h"
[[ -n $paced ]] || args+=(--precision 2%)
repo=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git checkout"
cd "$repo"
good_sha=$(git rev-parse --verify --quiet "$good^{commit}") || die "unknown commit '$good'; expected a branch, tag or sha"
bad_sha=$(git rev-parse --verify --quiet "$bad^{commit}") || die "unknown commit '$bad'; expected a branch, tag or sha"
git merge-base --is-ancestor "$good_sha" "$bad_sha" && [[ $good_sha != "$bad_sha" ]] \
  || die "good ${good_sha:0:7} is not an ancestor of bad ${bad_sha:0:7}; expected an older commit first"
oracle=${INFERBENCH_COMPARE_COMMITS:-$repo/tools/compare-commits.sh}
[[ -x $oracle ]] || die "the oracle $oracle is not an executable file"
# compare-commits runs `compare` from the checkout it is called in: missing, every step would end with exit 2
[[ -n ${INFERBENCH_COMPARE_COMMITS:-} || -f $repo/target/benchmarks.jar ]] \
  || die "$repo/target/benchmarks.jar is missing: each step's compare runs this checkout's; build it first: mvn -q package -DskipTests"
commits=$(git rev-list --count "$good_sha..$bad_sha")
out=${out:-results/bisect-${good_sha:0:7}-${bad_sha:0:7}-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"; out=$(cd "$out" && pwd)

state=$(mktemp -d)
cleanup() { local rc=$?; trap - ERR; set +e # nothing here changes the exit code the bisect ended with
  for t in bisect good; do [[ -d $state/$t ]] && git worktree remove --force "$state/$t" >/dev/null 2>&1; done
  rm -rf "$state"; git worktree prune 2>/dev/null; exit $rc; }
trap cleanup EXIT
printf '%s\n' "${args[@]}" >"$state/args"
echo 0 >"$state/comparisons"; : >"$state/steps"
export BISECT_PERF_DIR=$state BISECT_PERF_REPO=$repo BISECT_PERF_ORACLE=$oracle BISECT_PERF_OUT=$out
export BISECT_PERF_BUDGET=$budget_s BISECT_PERF_GOOD_DIR=$state/good

# GOOD is the base of every step: built once, then given to compare-commits as a built checkout
git worktree add --detach --quiet "$state/good" "$good_sha"
echo "[bisect-perf] building good ${good_sha:0:7} once ..."
(cd "$state/good" && mvn -q $offline package -DskipTests >"$out/build-good.log" 2>&1) \
  || die "commit ${good_sha:0:7} (good) does not build; see $out/build-good.log"
echo "[bisect-perf] $commits commits after good ${good_sha:0:7} up to bad ${bad_sha:0:7}; each step: ${args[*]} --budget ${budget_s}s"

exec 3>&1
# the oracle builds each commit from its sha: the bisect's worktree needs no files (--no-checkout: BISECT_HEAD)
git worktree add --detach --no-checkout --quiet "$state/bisect" "$bad_sha"
# first the whole range: BAD against GOOD, so that a range with no regression is not bisected
rc=0; (cd "$state/bisect" && bash "$self" --as-step) || rc=$?
case $rc in
  0) echo "bisect-perf: bad ${bad_sha:0:7} is not slower than good ${good_sha:0:7} (see $out/step-1.log); nothing to bisect" >&2
     exit 3 ;;
  125) echo "bisect-perf: could not tell whether bad ${bad_sha:0:7} is slower than good ${good_sha:0:7}, twice; run with a longer --budget" >&2
     exit 3 ;;
  255) read -r code line <"$state/abort"; echo "bisect-perf: $line" >&2; exit "$code" ;;
  1) ;;
  *) fail "the first step (bad ${bad_sha:0:7} against good) ended with exit $rc; see $out" ;;
esac
if [[ -z $min_effect ]]; then
  # the slowdown the first comparison measured: the ratio of its first gated FAIL row (e.g. "1.395 [1.046, 1.862]")
  ratio=$(gated_rows "$out/step-1.log" | grep -E 'FAIL[[:space:]]*$' | head -1 | grep -oE '[0-9]+\.[0-9]+ \[' | head -1 \
    | cut -d' ' -f1 || true)
  [[ -n $ratio ]] || fail "cannot read the slowdown from the first comparison's gated row; see $out/step-1.log"
  min_effect=$(awk -v r="$ratio" 'BEGIN { e = (r - 1) * 50; if (e < 3) e = 3; if (e > 50) e = 50; printf "%.1f%%", e }')
  printf '%s\n' --min-effect "$min_effect" >>"$state/args"
  echo "[bisect-perf] bad is $(awk -v r="$ratio" 'BEGIN { printf "%+.1f%%", (r - 1) * 100 }') against good; each further step asks for a slowdown of at least $min_effect (half of it; --min-effect sets it)"
fi
if [[ -z $paced ]]; then
  # A later step tells a commit that holds the regression (about twice the minimum effect E) from one that does not
  # (about none) once its interval is within +-E/2: one comparison a step, stopped by that precision (Stein's stop,
  # which never looks at the verdict) or by three times the budget (what a step and its rerun at twice the budget
  # could spend), a commit still undecided then skipped. So the bisect makes one comparison a step.
  precision=$(awk -v e="${min_effect%\%}" 'BEGIN { printf "%.1f%%", e / 2 }')
  awk -v p="$precision" 'prev == "--precision" { $0 = p } { print; prev = $0 }' "$state/args" >"$state/args.next"
  mv "$state/args.next" "$state/args"
  export BISECT_PERF_BUDGET=$(( 3 * budget_s )) BISECT_PERF_ONCE=1
  echo "[bisect-perf] each further step: one comparison, until its interval is within +-$precision (--precision, half the minimum effect) or $(( 3 * budget_s ))s (three times --budget); a commit it cannot tell then is skipped"
fi
(cd "$state/bisect" && git bisect start --no-checkout "$bad_sha" "$good_sha" >/dev/null \
  && git bisect run bash "$self" --as-step) >"$out/bisect.log" 2>&1 || true
if [[ -f $state/abort ]]; then read -r code line <"$state/abort"; echo "bisect-perf: $line" >&2; exit "$code"; fi
first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$out/bisect.log" | head -1)
n=$(cat "$state/comparisons")
if [[ -z $first ]]; then
  echo "bisect-perf: no single first bad commit after $n comparisons (skipped commits leave it open); see $out/bisect.log" >&2
  sed -n '/first bad commit could be any of/,$p' "$out/bisect.log" >&2
  exit 3
fi
last=$(awk -v s="$first" '$1 == s && ($3 == 1) { l = $2 } END { print l }' "$state/steps")
echo "[bisect-perf] first bad commit: $(git log -1 --format='%h %s' "$first") ($n comparisons for $commits commits)"
[[ -z $last ]] || { gated_rows "$out/$last.log"; where_tables "$out/$last.log"
  echo "[bisect-perf] its comparison against good: $out/$last"; }
exit 0
