#!/usr/bin/env bash
# Interleaved A/B benchmark of two commits: each commit's jar is built in its own git worktree, then forks run
# A, B, A, B ... (one fork per step of a paced launcher per side, so drift of the machine hits both builds alike),
# then `compare`, which pairs fork N of each side (the two ran next to each other) and builds the ratio's interval
# from the per-pair ratios. With --precision P it adds fork pairs until every gated row has the pairs its interval
# needs to be narrower than P, or the budget is spent: Stein's two-stage design, where the first 8 pairs (the pilot)
# fix how many pairs run from their spread alone and the final interval keeps the pilot's degrees of freedom. The
# script asks `compare --stop-status` after each pair, whose one-line answer never depends on where an interval lies
# or on a verdict, which only the compare at the end declares (docs/statistics.md, "Stopping early").
# Whether the machine was disturbed during a pair is taken outside the measured JVMs, so that no build can move it:
# around each fork this script reads other processes' CPU from /proc (the machine's busy time less this script's and
# the two launchers' process trees), and between pairs it times a fixed loop of its own (the same shell, the same
# instructions for both sides); one line per fork in OUT/machine.tsv, which `compare` reads to leave disturbed pairs
# out (docs/statistics.md, "Disturbed pairs are left out").
# Where each pair's wall time went (operator passes, the two forks, the canary, the launchers writing their results
# and the stop question, the rest) is one line per pair in OUT/pair-time.tsv: what a comparison's pairs cost.
# Each pair runs base then head or head then base by a seeded coin (--seed N, default from the clock), recorded in
# OUT/pair-order.txt, so that an order effect (the second fork finding warmer caches, a drift within the pair) is
# noise the interval sees instead of a bias in every pair.
# Where, by operator: before each pair's forks (or every K-th pair, --where-every K; not with --duet) each side's
# launcher runs one operator pass of its ort cells in its own JVM (ONNX Runtime's profiling on, never in a timed
# fork), in the pair's order; `compare` sets the passes side by side pair by pair and prints, for each gated row that
# reads slower, faster or could not tell, the operators that changed with their intervals (docs/statistics.md,
# "Where"), and the same passes' async-profiler cpu samples by frame group with the JVM's heap, GC and JIT time per
# call. Their cost is timed and printed at the end; --no-where leaves them out. Both sides must be builds that
# know the pass (paced protocol 4); an older side gets none, and the comparison says so.
#
# usage: tools/compare-commits.sh <base> <head> [JMH args...] [--precision P] [--budget 20m] [--forks N]
#                                 [--min-effect 3%] [--fail-on-regression] [--out DIR] [--head-args "ARGS"]
#                                 [--pin [CPUS]] [--duet | --turns] [--seed N] [--offline] [--no-where] [--where-every K]
#                                 [--base-build "MVN ARGS"] [--head-build "MVN ARGS"]
#   --forks N       forks per side without --precision (default 10); the most per side with it (default 60)
#   --out DIR       where the two run folders go (default results/compare-<base>-<head>-<time>)
#   --head-args A   extra JMH args for the head side only, e.g. the calibration aid:
#                   tools/compare-commits.sh HEAD HEAD -p model=resnet-tiny --head-args "-jvmArgsAppend -Dinferbench.slowdown=10"
#                   (the same commit on both sides without it is an A/A comparison)
#   --pin [CPUS]    every fork of both sides runs on the same CPUs (a taskset list, default 0): the launchers are
#                   started under taskset and their fork JVMs inherit it. threads=0 becomes the number of those CPUs
#                   (-p threads=N is passed); a cell with more threads than CPUs is refused
#   --duet          base's and head's forks of a pair run at the same time, each on its own half of the CPUs (of
#                   --pin's list if given, else of all this script may use), swapping halves every pair; they warm up
#                   in turns and start every measured iteration together (DuetBarrier, through files in OUT/duet).
#                   threads=0 becomes the half's CPU count; a cell with more threads than that is refused.
#                   See docs/duet.md. e.g.
#                   tools/compare-commits.sh . . --duet -p model=mlp-tiny -p batchSize=1 -p threads=1 --forks 10
#   --turns         base's and head's forks of a pair run at the same time but take turns: each iteration (warm-up and
#                   measured) is a round in which one side runs while the other sleeps, the lead alternating A B B A,
#                   so the two sides' iterations are a second apart instead of a fork apart (DuetBarrier, files in
#                   OUT/duet). Each side has all the CPUs (or --pin's) in its turn; a serving fork's capacity and
#                   open-loop warm-up are in its warm-up iteration, a turn like any other. See docs/duet.md
#   --seed N        the seed of the pair-order coin (recorded in OUT/pair-order.txt)
#   --no-where      no operator passes (compare then prints no "where" tables)
#   --where-every K an operator pass before every K-th pair only (default: every pair, unless the first pair's passes
#                   took a second or more and over 15 % of its time: then every K-th, the smallest K that keeps them
#                   to 15 %, from the first pair's passes and forks)
#   --offline       build each side with mvn -o (only what the local repository holds); by default each side is
#                   built as the README builds it, resolving what it needs. A side whose --base-build/--head-build
#                   names something the local repository lacks is built online instead, and the script says so
#   --base-build A, --head-build A
#                   extra Maven arguments for building that side only, e.g. an engine upgrade on one commit:
#                   tools/compare-commits.sh HEAD HEAD -p model=mlp-tiny --base-build "-Donnxruntime.version=1.22.0"
#                   (each side in its own worktree with its own jar; the versions each side runs are printed after
#                   its build, read from its jar, and compare reads the ones each side's run loaded)
# A side given as "." is this checkout as it is (its target/benchmarks.jar, not rebuilt): `. .` is an A/A run of the
# working tree without building twice. A side given as a folder holding target/benchmarks.jar (a checkout built
# before) is used as it is too: tools/aa-proof.sh builds a commit twice once and compares the two builds many times.
# Exit codes: those of `compare` (0 pass, 1 regression with --fail-on-regression, 3 could not tell), 2 bad input, a
# commit that does not build or a side whose launcher speaks a protocol this script does not know, 4 any other
# failure (a command of this script, a fork of either side that failed, a launcher that ended early): never 0 or 1.
# INFERBENCH_JAVA_OPTS is passed to every java command (e.g. -Djmh.ignoreLock=true).
set -Eeuo pipefail
export ORT_DISABLE_TELEMETRY=1 # ONNX Runtime writes no telemetry (docs/running.md)

die() { echo "compare-commits: $*" >&2; exit 2; }
fail() { echo "compare-commits: $*" >&2; exit 4; }
# a command that fails where the script did not expect it (mkdir, mktemp, mkfifo, git ...) is no verdict: exit 4 with
# one line, not set -e's 1, which CI reads as a regression; in a subshell only the outermost shell says it
on_error() { local rc=$?; [[ $BASH_SUBSHELL -eq 0 ]] || exit 4
  echo "compare-commits: unexpected failure (exit $rc) of: $BASH_COMMAND (line ${BASH_LINENO[0]})" >&2; exit 4; }
trap on_error ERR
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,/^set -/{/^set -/d;s/^# \{0,1\}//;p}' "$0"; exit 0; fi
[[ $# -ge 2 ]] || die "expected: tools/compare-commits.sh <base> <head> [JMH args] [--precision P] [--budget 20m]"
base=$1 head=$2; shift 2
precision="" budget="" forks="" min_effect="3%" fail_flag="" out="" jmh=() head_args= pin="" duet="" turns="" seed="" offline=""
where=1 where_every="" base_build="" head_build=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --precision) precision=${2:?--precision needs a value, e.g. 2%}; shift 2 ;;
    --budget) budget=${2:?--budget needs a value, e.g. 20m}; shift 2 ;;
    --forks) forks=${2:?--forks needs a number}; shift 2 ;;
    --min-effect) min_effect=${2:?--min-effect needs a value, e.g. 3%}; shift 2 ;;
    --fail-on-regression) fail_flag=--fail-on-regression; shift ;;
    --seed) seed=${2:?--seed needs a number}; shift 2 ;;
    --offline) offline=-o; shift ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --head-args) head_args=${2?--head-args needs a value}; shift 2 ;;
    --base-build) base_build=${2?--base-build needs Maven arguments, e.g. -Donnxruntime.version=1.22.0}; shift 2 ;;
    --head-build) head_build=${2?--head-build needs Maven arguments, e.g. -Donnxruntime.version=1.29.0}; shift 2 ;;
    --pin) if [[ ${2:-} =~ ^[0-9] ]]; then pin=$2; shift 2; else pin=0; shift; fi ;;
    --duet) duet=1; shift ;;
    --turns) turns=1; shift ;;
    --no-where) where=""; shift ;;
    --where-every) where_every=${2:?--where-every needs a number}; shift 2 ;;
    *) jmh+=("$1"); shift ;;
  esac
done
seconds() { # 90s, 20m, 1h -> seconds; checked whole before any arithmetic, so no value is ever evaluated
  [[ $1 =~ ^([0-9]{1,7})([smh]?)$ ]] || return 1
  local n=$((10#${BASH_REMATCH[1]}))
  case ${BASH_REMATCH[2]} in h) echo $((n * 3600));; m) echo $((n * 60));; *) echo "$n";; esac
}
budget_s=0
[[ -z $budget ]] || budget_s=$(seconds "$budget") \
  || die "--budget '$budget' is not a duration; expected e.g. 90s, 20m, 1h"
forks_from="--forks $forks"
[[ -n $forks ]] || { forks=$([[ -n $precision ]] && echo 60 || echo 10); forks_from="the default without --forks"; }
[[ $forks =~ ^[0-9]+$ && $forks -ge 3 ]] || die "--forks '$forks' is not a whole number >= 3"
[[ -n $seed ]] || seed=$(( $(date +%s) % 32768 ))
[[ $seed =~ ^[0-9]+$ ]] || die "--seed '$seed' is not a whole number"
[[ -z $where_every ]] || [[ $where_every =~ ^[0-9]+$ && $where_every -ge 1 ]] \
  || die "--where-every '$where_every' is not a whole number >= 1"
where_auto=$([[ -z $where_every ]] && echo 1 || true); where_every=${where_every:-1}
for side in base head; do # a side's build arguments are Maven options (-Dname=value, -P profile ...), never a goal
  v=${side}_build prev=""
  for word in ${!v}; do
    [[ $word == -* || $prev == -P || $prev == -pl ]] \
      || die "--$side-build '${!v}' is not Maven options: '$word' is no option; expected e.g. -Donnxruntime.version=1.22.0"
    prev=$word
  done
done
[[ -z $duet || -z $turns ]] || die "--duet and --turns are two ways to run a pair; give one"
# the operator passes run in the launchers between pairs, all CPUs to themselves; a duet pins its launchers to halves
[[ -z $duet ]] || where=""
pilot=8 # compare's --pilot: pairs whose spread fixes how many pairs run (StoppingRule.PILOT_PAIRS)

# a side given as a folder that holds a built target/benchmarks.jar (another checkout) is used as it is
for side in base head; do
  [[ ${!side} != . && -d ${!side} && -f ${!side}/target/benchmarks.jar ]] && printf -v "$side" '%s' "$(cd "${!side}" && pwd)"
done
repo=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git checkout"
cd "$repo"
# --pin and --duet: which CPUs each side's launcher (and so every fork JVM it starts) may run on
cpu_list() { # a taskset list (0-2,5) -> its CPUs, one a line, in order; false when it is not such a list
  [[ $1 =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] || return 1
  local part
  for part in ${1//,/ }; do
    if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
  done | sort -n -u
}
joined() { local IFS=,; echo "$*"; }
pin_cpus=() half_a="" half_b="" per_side=0
if [[ -n $pin || -n $duet ]]; then
  command -v taskset >/dev/null || die "--pin and --duet need taskset (util-linux); it is not on the PATH"
  allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
  mapfile -t usable < <(cpu_list "$allowed")
  if [[ -n $pin ]]; then
    mapfile -t pin_cpus < <(cpu_list "$pin") || true
    [[ ${#pin_cpus[@]} -gt 0 ]] || die "--pin '$pin' is not a CPU list; expected e.g. 0, 0-1 or 0,2"
    for c in "${pin_cpus[@]}"; do
      [[ " ${usable[*]} " == *" $c "* ]] || die "--pin '$pin': CPU $c is not one this script may run on ($allowed)"
    done
  else
    pin_cpus=("${usable[@]}")
  fi
  per_side=${#pin_cpus[@]}
  if [[ -n $duet ]]; then
    # an odd CPU is left out: both sides must get as many CPUs, or the faster side is the one with more
    per_side=$(( ${#pin_cpus[@]} / 2 ))
    [[ $per_side -ge 1 ]] || die "--duet needs at least 2 CPUs, one a side; it was given ${#pin_cpus[@]} ($(joined "${pin_cpus[@]}"))"
    half_a=$(joined "${pin_cpus[@]:0:per_side}")
    half_b=$(joined "${pin_cpus[@]:per_side:per_side}")
  fi
  # threads=0 is the engine's default, all cores: ORT does not reliably size its pool by the affinity mask, so the
  # cell is given the CPUs it has; more threads than CPUs would measure the sides' threads queueing for one core
  cpus_named=$([[ -n $duet ]] && echo "half of the duet's CPUs ($half_a | $half_b)" || echo "the pinned CPUs ($(joined "${pin_cpus[@]}"))")
  threads="" rest=()
  for ((i = 0; i < ${#jmh[@]}; i++)); do
    if [[ ${jmh[i]} == -p && ${jmh[i+1]:-} == threads=* ]]; then threads=${jmh[i+1]#threads=}; i=$((i + 1))
    elif [[ ${jmh[i]} == -pthreads=* ]]; then die "give threads as -p threads=N (two words) with --pin or --duet, not ${jmh[i]}"
    elif [[ ${jmh[i]} == --cells && -f ${jmh[i+1]:-} ]] && grep -v '^[[:space:]]*#' "${jmh[i+1]}" | grep -qE '(^|[[:space:]])threads='; then
      die "--cells ${jmh[i+1]} sets threads; with --pin or --duet give them with -p threads=N so they can be fitted to the CPUs"
    else rest+=("${jmh[i]}"); fi
  done
  [[ $head_args != *threads=* ]] || die "--head-args sets threads; with --pin or --duet both sides take -p threads=N from the common arguments"
  [[ -n $threads ]] || threads=$(sed -n 's/^param\.threads=//p' benchmarks.properties 2>/dev/null | tail -1 || true)
  fitted=()
  for t in ${threads//,/ }; do
    [[ $t =~ ^[0-9]+$ ]] || die "threads '$t' is not a whole number"
    [[ $t -eq 0 ]] && t=$per_side
    [[ $t -le $per_side ]] || die "threads=$t does not fit $cpus_named: $per_side CPU(s) a side; use -p threads=$per_side or fewer"
    [[ " ${fitted[*]} " == *" $t "* ]] || fitted+=("$t")
  done
  [[ ${#fitted[@]} -gt 0 ]] || fitted=("$per_side")
  jmh=("${rest[@]}" -p "threads=$(joined "${fitted[@]}")")
fi
sha_of() { if [[ $1 == . ]]; then echo "worktree"; elif [[ $1 == /* && -f $1/target/benchmarks.jar ]]; then echo "built"
  else git rev-parse --verify --quiet "$1^{commit}" \
    || die "unknown commit '$1'; expected a branch, tag, sha, . (this checkout) or a checkout with target/benchmarks.jar"; fi; }
short() { [[ $1 == worktree || $1 == built ]] && echo "$1" || echo "${1:0:7}"; } # a sha's 7, never "worktre"
base_sha=$(sha_of "$base") || exit 2
head_sha=$(sha_of "$head") || exit 2
for side in base head; do
  v=${side}_build sha=${side}_sha
  [[ -z ${!v} || ${!sha} != worktree && ${!sha} != built ]] \
    || die "--$side-build needs a commit to build; the $side side '${!side}' is a jar already built, used as it is"
done
java_opts=(${INFERBENCH_JAVA_OPTS:-})
compare_jar=$repo/target/benchmarks.jar
[[ -f $compare_jar ]] || die "$compare_jar is missing; build this checkout first: mvn -q package -DskipTests"
out=${out:-results/compare-$(short "$base_sha")-$(short "$head_sha")-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"; out=$(cd "$out" && pwd)

trees=$(mktemp -d)
cleanup() { local rc=$?; trap - ERR; set +e # nothing here changes the exit code the comparison ended with
  for p in "${pid[@]:-}"; do [[ -n $p ]] && kill "$p" 2>/dev/null; done
  for p in "${pid[@]:-}"; do [[ -n $p ]] && wait "$p" 2>/dev/null; done # launchers end before their trees go
  for t in base head; do [[ -d $trees/$t && ! -L $trees/$t ]] && git worktree remove --force "$trees/$t" >/dev/null 2>&1; done
  rm -rf "$trees"; git worktree prune 2>/dev/null; exit $rc; }
trap cleanup EXIT
build_side() { # side mvn-args...: builds that side's worktree, its output appended to its build log
  local side=$1; shift
  echo "mvn $*" >>"$out/build-$side.log"
  (cd "$trees/$side" && mvn "$@" >>"$out/build-$side.log" 2>&1)
}
for side in base head; do
  sha=$([[ $side == base ]] && echo "$base_sha" || echo "$head_sha")
  if [[ $sha == worktree ]]; then ln -s "$repo" "$trees/$side"; continue; fi
  if [[ $sha == built ]]; then ln -s "${!side}" "$trees/$side"; continue; fi
  git worktree add --detach --quiet "$trees/$side" "$sha"
  v=${side}_build; read -r -a extra <<<"${!v}"
  echo "[compare-commits] building $side ${sha:0:7}${extra[*]:+ with ${extra[*]}} ..."
  : >"$out/build-$side.log"
  rc=0; build_side "$side" -q $offline package -DskipTests "${extra[@]}" || rc=$?
  # what a side's own arguments ask for (another engine version) may not be in the local repository yet: it is
  # fetched now, at build time, never by a run
  if [[ $rc -ne 0 && -n $offline && ${#extra[@]} -gt 0 ]] && grep -q 'offline mode' "$out/build-$side.log"; then
    echo "[compare-commits] the local Maven repository lacks what ${extra[*]} needs; building $side online"
    rc=0; build_side "$side" -q package -DskipTests "${extra[@]}" || rc=$?
  fi
  if [[ $rc -ne 0 ]]; then
    missing=$(sed 's/\x1b\[[0-9;]*m//g' "$out/build-$side.log" \
      | { grep -o 'could not be resolved: [^ ]*\|Could not find artifact [^ ]*' || true; } | tail -1 | sed 's/.* //; s/[:,]$//')
    why=${missing:+: Maven cannot get $missing}
    die "commit ${sha:0:7} ($side${extra[*]:+, built with ${extra[*]}}) does not build$why; see $out/build-$side.log"
  fi
done
# what each side bundles, as its jar says (the engine versions it holds, not the ones a build property asked for)
for side in base head; do
  jar_says=$(cd "$trees/$side" && java -jar target/benchmarks.jar --version 2>/dev/null | sed -n 2p || true)
  sha=${side}_sha; v=${side}_build
  label=$([[ ${!sha} == worktree || ${!sha} == built ]] && echo "${!side}" || echo "${!sha:0:7}")
  echo "[compare-commits] $side $label${!v:+ (${!v})}: ${jar_says:-its jar does not say its versions}"
done

start=$(date +%s)
# One launcher per side for the whole comparison (--paced): each runs one fork when told to and then waits, so a
# fork costs its own JVM only, not a launcher JVM, the run's planning and a report as well (about 3 s per fork
# before). Each launcher reads its go from a FIFO and writes its output into another, which this script copies to
# the side's log line by line with blocking reads: waiting costs no CPU (a polling loop here took a third of a core
# from the forks it waited for).
declare -A pid ended protocol
trap '' PIPE # a launcher that has ended makes a write to its FIFO fail, not this script die
base_go= head_go= base_out= head_out=
side_cpus() { # side pair: the CPUs that side's fork of that pair runs on (the halves swap every pair)
  [[ -n $duet ]] || { joined "${pin_cpus[@]}"; return; }
  if [[ ($1 == base && $(( $2 % 2 )) == 1) || ($1 == head && $(( $2 % 2 )) == 0) ]]; then echo "$half_a"; else echo "$half_b"; fi
}
launch() { # side: plans the run and waits, ready for its first fork
  local side=$1 extra=() pinned=()
  [[ $side == head && -n $head_args ]] && read -r -a extra <<<"$head_args"
  # the fork JVMs a launcher starts inherit its CPUs; --duet moves the launcher to its half before each pair
  [[ ${#pin_cpus[@]} -gt 0 ]] && pinned=(taskset -c "$(side_cpus "$side" 1)")
  local opts=("${java_opts[@]}")
  if [[ -n $duet || -n $turns ]]; then
    extra+=(-jvmArgsAppend "-D${duet_property}=$duet_dir:$side${turns:+:turns}")
    # JMH's machine-wide lock exists so that two runs never measure at once, which is what a duet does on purpose
    # (and two forks alive at once in turns); one side still takes it, so a third run on the machine waits for them
    opts+=(-Djmh.ignoreLock=true)
  fi
  mkfifo "$trees/$side.go" "$trees/$side.out"
  (cd "$trees/$side" && exec "${pinned[@]}" java "${opts[@]}" -jar target/benchmarks.jar "${jmh[@]}" "${extra[@]}" \
     -f "$forks" --run-dir "$out/$side" --paced -v SILENT <"$trees/$side.go" >"$trees/$side.out" 2>&1) &
  pid[$side]=$!
  if [[ $side == base ]]; then exec {base_go}>"$trees/$side.go" {base_out}<"$trees/$side.out"
  else exec {head_go}>"$trees/$side.go" {head_out}<"$trees/$side.out"; fi
}
until_ready() { # side: copies its output to its log until it says it is ready; false at its end (plan done, or failed)
  local side=$1 fd line
  [[ -z ${ended[$side]:-} ]] || return 1
  fd=$([[ $side == base ]] && echo "$base_out" || echo "$head_out")
  while IFS= read -r -u "$fd" line; do
    printf '%s\n' "$line" >>"$out/$side.log"
    [[ $line =~ ^\[inferbench\]\ paced:\ protocol\ ([0-9]+)$ ]] && protocol[$side]=${BASH_REMATCH[1]}
    [[ $line == "[inferbench] paced: ready for the next fork" ]] && return 0
  done
  ended[$side]=1
  return 1
}
# The paced exchange (run.Pacer): 1 a go line per fork, the result written after each fork; 2 adds write-result;
# 3 announces itself. A side that announced nothing is a build from before version 3: whether its Pacer knows
# write-result tells 2 from 1. Each side is driven its own way; a version this script does not know is refused.
handshake() { # side: after its first ready
  local side=$1
  if [[ -z ${protocol[$side]:-} ]]; then
    if unzip -p "$trees/$side/target/benchmarks.jar" dev/inferbench/run/Pacer.class 2>/dev/null | grep -aq write-result
    then protocol[$side]=2; else protocol[$side]=1; fi
  fi
  [[ ${protocol[$side]} -le 4 ]] || die "the $side side's launcher speaks paced protocol ${protocol[$side]}; this script knows 1 to 4: run the newer side's tools/compare-commits.sh"
  echo "paced protocol ${protocol[$side]}" >>"$out/$side.log"
}
go() { if [[ $1 == base ]]; then echo "${2:-go}" >&"$base_go"; else echo "${2:-go}" >&"$head_go"; fi; } 2>/dev/null
# a paced launcher writes its side's jmh-result.json only when told (JMH's writer takes longer with every fork, and
# after a fork of one side it delayed the other side's fork of the pair) and at its end; --precision reads it
# the operator pass of pair N on one side (protocol 4): the side's launcher profiles its ort cells into its run
# folder's where/pair-N and says ready again; its wall time goes to OUT/where.tsv
pass_ms=0
operator_pass() { # side pair
  local t0=${EPOCHREALTIME//[!0-9]/} t1
  [[ -z ${ended[$1]:-} ]] && go "$1" "operator-pass $2" && until_ready "$1" || true
  t1=${EPOCHREALTIME//[!0-9]/}
  printf '%s\t%s\t%s\n' "$2" "$1" "$(ms $(( t1 - t0 )))" >>"$out/where.tsv"
  pass_ms=$(( pass_ms + (t1 - t0) / 1000 ))
}
write_results() { local side; for side in base head; do
  [[ ${protocol[$side]} -ge 2 && -z ${ended[$side]:-} ]] && go "$side" write-result && until_ready "$side" || true; done; }
step() { # one fork of one side (it is ready when this is called); false when the side has nothing more to run
  [[ -z ${ended[$1]:-} ]] || return 1
  local rc=0
  fork_began "$1"
  { go "$1" && until_ready "$1"; } || rc=1
  fork_ended "$1"
  return $rc
}
finish() { # closes the launchers' input: each writes its summary and report and ends
  [[ -n $base_go ]] && exec {base_go}>&-
  [[ -n $head_go ]] && exec {head_go}>&-
  base_go= head_go=
  for side in base head; do
    while until_ready "$side"; do :; done
    reap "$side"
  done
}
declare -A status
reap() { # side: its launcher's exit status, once it has ended; a launcher that failed fails the comparison
  local side=$1 rc=0
  [[ -n ${status[$side]:-} ]] && return 0
  wait "${pid[$side]}" 2>/dev/null || rc=$?
  status[$side]=$rc
  [[ $rc -eq 0 ]] || fail "the $side side's launcher ended with exit $rc after $(landed "$side") forks; see $out/$side.log"
}
check_side() { # side forks-before: after a pair, that side's fork landed, or its launcher ended cleanly with its plan
  local side=$1 before=$2
  [[ $(landed "$side") -gt $before ]] && return 0
  [[ -n ${ended[$side]:-} ]] || fail "a $side fork failed at pair $((pairs + 1)) (no result landed, the launcher ran on); see $out/$side.log"
  reap "$side"
}
# --duet: DuetBarrier's folder, emptied before each pair; a pair's files are kept as OUT/duet/pair-N, the record of
# when each side reached and started each iteration and on which CPUs
duet_property=inferbench.duet duet_dir=$out/duet/now
keep_pair() { # pair: files the barrier's folder as that pair's record, or drops it when no fork used it
  if compgen -G "$duet_dir/base.*" >/dev/null || compgen -G "$duet_dir/head.*" >/dev/null; then
    mv "$duet_dir" "$out/duet/pair-$1"
  else rm -rf "$duet_dir"; fi
}
duet_pair() { # pair first: both sides' forks at once (a duet each on its half), then waits for both
  local p=$1 side sent=()
  [[ ! -d $duet_dir ]] || keep_pair $((p - 1))
  mkdir -p "$duet_dir"
  # a duet: the side that warms up first waits the other's turn before measuring, so it alternates as the halves do;
  # in turns: the side that leads the odd rounds (the coin's pick)
  if [[ -n $turns ]]; then printf 'first=%s\n' "$2" >"$duet_dir/warmup"
  else printf 'first=%s\ncpus=%s\n' "$( (( p % 2 == 1 )) && echo base || echo head)" "$half_a,$half_b" >"$duet_dir/warmup"; fi
  for side in base head; do
    [[ -z ${ended[$side]:-} ]] || continue
    [[ -z $duet ]] || taskset -a -p -c "$(side_cpus "$side" "$p")" "${pid[$side]}" >/dev/null 2>&1 || true
    fork_began "$side"
    go "$side" && sent+=("$side")
  done
  for side in "${sent[@]}"; do until_ready "$side" || true; done
  # both forks ran at once: each side's window is the pair's, the partner's JVM is this script's, not another's
  for side in "${sent[@]}"; do fork_ended "$side"; done
}
# The machine record (OUT/machine.tsv): the script's own canary and /proc readings, never the measured builds'
canary_us=() # the canary's readings in microseconds: index 0 before pair 1, index p after pair p
canary() { # the fastest of 3 timings of a fixed integer loop in this shell, appended to canary_us (no subshell, no
  # JVM): a blip of another process slows one timing, a slow machine all three
  local r i x t0 t1 a=()
  for r in 1 2 3; do
    t0=${EPOCHREALTIME//[!0-9]/}; x=1
    for ((i = 0; i < 10000; i++)); do x=$(( (x * 1103515245 + 12345) & 0x7fffffff )); done
    t1=${EPOCHREALTIME//[!0-9]/}; a+=($(( t1 - t0 )))
  done
  canary_us+=($(( a[0] < a[1] ? (a[0] < a[2] ? a[0] : a[2]) : (a[1] < a[2] ? a[1] : a[2]) )))
}
proc_ok=$([[ -r /proc/stat && -r /proc/$$/stat && -n ${EPOCHREALTIME:-} ]] && echo 1 || true)
ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)
sample() { # -> sample_us, sample_busy (the machine's busy ticks), sample_ours (this script's and the launchers' trees)
  sample_us=${EPOCHREALTIME//[!0-9]/} sample_busy=0 sample_ours=0
  [[ -n $proc_ok ]] || return 0
  local cpu user nice system idle iowait irq softirq steal rest p stat f
  read -r cpu user nice system idle iowait irq softirq steal rest </proc/stat
  sample_busy=$(( user + nice + system + irq + softirq + steal ))
  for p in $$ "${pid[base]:-}" "${pid[head]:-}"; do
    [[ -n $p ]] && read -r stat 2>/dev/null </proc/"$p"/stat || continue
    read -r -a f <<<"${stat##*) }" # utime, stime, and the reaped children's (the fork JVMs): fields 14-17
    sample_ours=$(( sample_ours + f[11] + f[12] + f[13] + f[14] ))
  done
}
declare -A window # side -> "start_us busy ours" at its go, then "start_us end_us others" once its fork ended
fork_began() { sample; window[$1]="$sample_us $sample_busy $sample_ours"; }
fork_ended() { # side: the other processes' cores over its fork's window
  local s b o others="-"
  read -r s b o <<<"${window[$1]}"
  sample
  if [[ -n $proc_ok && $sample_us -gt $s ]]; then
    others=$(( ((sample_busy - b) - (sample_ours - o)) * 100000000 / ticks / (sample_us - s) ))
    (( others >= 0 )) || others=0
    printf -v others '%d.%02d' $(( others / 100 )) $(( others % 100 ))
  fi
  window[$1]="$s $sample_us $others"
}
record_pair() { # pair sides...: one line per fork of the pair, with the canary before and after it
  local p=$1 side s e others; shift
  for side in "$@"; do
    read -r s e others <<<"${window[$side]}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$side" "$s" "$e" "$others" \
      "$(ms "${canary_us[p - 1]}")" "$(ms "${canary_us[p]}")" >>"$out/machine.tsv"
  done
}
pair_time() { # pair: where its wall time went, one line in OUT/pair-time.tsv (the rest: the script's bookkeeping)
  local all=$(( ${EPOCHREALTIME//[!0-9]/} - u0 ))
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(ms "$u_pass")" "$(ms "$u_forks")" "$(ms "$u_canary")" \
    "$(ms "$u_write")" "$(ms "$u_stop")" "$(ms $(( all - u_pass - u_forks - u_canary - u_write - u_stop )))" "$(ms "$all")" \
    >>"$out/pair-time.tsv"
}
ms() { printf '%d.%03d' $(( $1 / 1000 )) $(( $1 % 1000 )); }
landed() { { find "$out/$1/forks" -name 'fork-*.json' ! -name '*.time.json' ! -name '*.record.json' 2>/dev/null || true; } | wc -l; }
compare() { java "${java_opts[@]}" -jar "$compare_jar" compare "$out/base" "$out/head" --min-effect "$min_effect" "$@"; }

if [[ -n $duet || -n $turns ]]; then
  [[ $out != *[[:space:]]* ]] || die "--${duet:+duet}${turns:+turns} needs an --out folder without spaces (JMH splits -jvmArgsAppend at them): '$out'"
fi
if [[ -n $duet ]]; then
  echo "[compare-commits] duet: each side on its half of CPUs $half_a | $half_b, swapped every pair; -p ${jmh[*]: -1}"
elif [[ -n $turns ]]; then
  echo "[compare-commits] turns: both sides' forks of a pair at once, one iteration at a time each, the lead A B B A${pin_cpus:+ on CPUs $(joined "${pin_cpus[@]}")}"
elif [[ ${#pin_cpus[@]} -gt 0 ]]; then
  echo "[compare-commits] pinned: every fork of both sides on CPUs $(joined "${pin_cpus[@]}"); -p ${jmh[*]: -1}"
fi
launch base; launch head
for side in base head; do
  until_ready "$side" || die "the $side side did not start (a build without --paced launchers cannot be compared by this script); see $out/$side.log"
  handshake "$side"
done
if [[ -n $where ]]; then
  for side in base head; do
    if [[ ${protocol[$side]} -lt 4 ]]; then
      echo "[compare-commits] no operator passes: the $side side's build predates them (paced protocol ${protocol[$side]}); no \"where\" tables"
      where=""
    fi
  done
  [[ -z $where ]] || printf 'pair\tside\tms\n' >"$out/where.tsv"
fi
RANDOM=$seed
printf 'seed %s\n' "$seed" >"$out/pair-order.txt"
printf 'pair\tside\tstart_us\tend_us\tothers_cores\tcanary_before_ms\tcanary_after_ms\n' >"$out/machine.tsv"
canary
printf 'pair\tpasses_ms\tforks_ms\tcanary_ms\twrite_ms\tstop_ms\trest_ms\tpair_ms\n' >"$out/pair-time.tsv"
pairs=0 last=0 next_look=$pilot # no stop can come before the pilot's last pair
stopped="" # why the pairs ended, said before the verdict so that a hint to run longer is read against it
while :; do
  t0=$(date +%s) u0=${EPOCHREALTIME//[!0-9]/} u_pass=0 u_write=0 u_stop=0
  before_base=$(landed base) before_head=$(landed head)
  # not in a $( ): a draw in a subshell would leave this shell's RANDOM where it was
  first=head; (( RANDOM % 2 == 0 )) && first=base
  second=$([[ $first == base ]] && echo head || echo base)
  # only while both sides have forks to run: a launcher past its last fork is writing its summary, not waiting
  if [[ -n $where ]] && (( pairs % where_every == 0 && $(landed base) < forks && $(landed head) < forks )); then
    u1=${EPOCHREALTIME//[!0-9]/}
    operator_pass "$first" $((pairs + 1)); operator_pass "$second" $((pairs + 1))
    u_pass=$(( ${EPOCHREALTIME//[!0-9]/} - u1 ))
  fi
  u1=${EPOCHREALTIME//[!0-9]/}
  if [[ -n $duet || -n $turns ]]; then
    duet_pair $((pairs + 1)) "$first"
  else
    step "$first" || true
    step "$second" || true
  fi
  u_forks=$(( ${EPOCHREALTIME//[!0-9]/} - u1 ))
  check_side base "$before_base"; check_side head "$before_head"
  if [[ $(landed head) -le $before_head && $(landed base) -le $before_base ]]; then # nothing more to run in the plan
    stopped="each side ran the $forks forks it was given ($forks_from)"; break
  fi
  u1=${EPOCHREALTIME//[!0-9]/}
  canary
  u_canary=$(( ${EPOCHREALTIME//[!0-9]/} - u1 ))
  forked=()
  if [[ $(landed base) -gt $before_base ]]; then forked+=(base); fi
  if [[ $(landed head) -gt $before_head ]]; then forked+=(head); fi
  record_pair $((pairs + 1)) "${forked[@]}"
  if [[ -n $turns ]]; then echo "pair $((pairs + 1)): $first leads the odd rounds" >>"$out/pair-order.txt"
  elif [[ -z $duet ]]; then echo "pair $((pairs + 1)): $first first" >>"$out/pair-order.txt"; fi
  pairs=$((pairs + 1)); last=$(( $(date +%s) - t0 ))
  elapsed=$(( $(date +%s) - start ))
  placed=$([[ -n $duet ]] && echo " (base on CPUs $(side_cpus base $pairs), head on $(side_cpus head $pairs))" || true)
  echo "[compare-commits] pair $pairs done (${last}s)$placed; base $(landed base) forks, head $(landed head) forks; elapsed ${elapsed}s"
  answer=""
  # the stop question only where its answer can be stop: from the pilot's last pair, then from the pair its last
  # answer named ("no stop before pair K"; every pair when it names none)
  if [[ -n $precision ]] && (( pairs >= next_look )); then
    u1=${EPOCHREALTIME//[!0-9]/}
    write_results
    u_write=$(( ${EPOCHREALTIME//[!0-9]/} - u1 ))
    answer=$(compare --precision "$precision" --pilot "$pilot" --max-pairs "$forks" --stop-status 2>"$out/stop-status.err") \
      || fail "compare could not answer whether to stop: $(head -1 "$out/stop-status.err")"
    echo "[compare-commits] $answer"
    u_stop=$(( ${EPOCHREALTIME//[!0-9]/} - u1 - u_write ))
    next_look=$(( pairs + 1 ))
    [[ $answer =~ no\ stop\ before\ pair\ ([0-9]+)$ ]] && (( BASH_REMATCH[1] > next_look )) && next_look=${BASH_REMATCH[1]}
  fi
  pair_time $pairs
  # passes of under a second a pair are left before every pair, whatever their share (a tiny cell's forks are short)
  if [[ -n $where && -n $where_auto && $pairs -eq 1 && $u_pass -ge 1000000 && $u_forks -gt 0 ]]; then
    # passes every K-th pair take u_pass / (K u_forks + u_pass) of the time: at most 15 % needs K >= 17 u_pass / 3 u_forks
    where_every=$(( (17 * u_pass + 3 * u_forks - 1) / (3 * u_forks) )); (( where_every >= 1 )) || where_every=1
    [[ $where_every -eq 1 ]] || echo "[compare-commits] operator passes before one pair in ${where_every}: a pair's passes took $(ms $((u_pass / 1000))) s against its forks' $(ms $((u_forks / 1000))) s, and the passes keep to 15 % of the comparison (--where-every 1: before every pair)"
  fi
  if [[ $answer == stop:* ]]; then stopped="compare answered ${answer#stop: }"; break; fi
  if [[ $budget_s -gt 0 && $(( elapsed + last )) -gt $budget_s ]]; then
    echo "[compare-commits] budget $budget spent"; stopped="the budget $budget was spent"; break
  fi
done
finish
[[ -z $duet$turns || ! -d $duet_dir ]] || keep_pair "$pairs"
[[ $(landed base) -gt 0 && $(landed head) -gt 0 ]] || die "no fork landed; see $out/base.log and $out/head.log"
total=$(( $(date +%s) - start ))
echo "[compare-commits] $base ($(short "$base_sha")) vs $head ($(short "$head_sha")), ${total}s; runs in $out"
if [[ -n $where ]]; then
  printf '[compare-commits] operator passes: %d in %s s, %d.%d %% of the comparison'"'"'s %d s (each in %s/where.tsv; --no-where leaves them out)\n' \
    "$(( $(wc -l <"$out/where.tsv") - 1 ))" "$(ms "$pass_ms")" $(( pass_ms / 10 / (total > 0 ? total : 1) )) \
    $(( pass_ms / (total > 0 ? total : 1) % 10 )) "$total" "$out"
fi
left=""
if [[ $budget_s -gt 0 && $stopped == each\ side* ]]; then
  left="; $(( budget_s > total ? budget_s - total : 0 ))s of the budget $budget were left unused: --forks N runs more pairs"
  [[ -n $precision ]] || left+=", or --precision P as many as an interval that narrow needs"
fi
echo "[compare-commits] stopped after $pairs pairs: ${stopped:-the plan ended}$left"
args=($fail_flag)
[[ -n $precision ]] && args+=(--precision "$precision" --pilot "$pilot")
rc=0
compare "${args[@]}" || rc=$?
# compare's own codes are verdicts (0, 1, 3), bad input (2) or its failure (4); anything else (a JVM that could not
# start, a signal) is a failure of the tool
case $rc in 0|1|2|3|4) exit "$rc" ;; *) fail "compare ended with exit $rc; expected 0 to 4" ;; esac
