#!/usr/bin/env bash
# Interleaved A/B benchmark of two commits: each commit's jar is built in its own git worktree, then forks run
# A, B, A, B ... (one fork per step through the run loop's --resume/--max-forks, so drift of the machine hits both
# builds alike), then `compare`. With --precision P it keeps adding fork pairs until every cell's ratio interval is
# narrower than P or its verdict is "same" (the same StoppingRule as a run's --precision; never on "slower" or
# "faster", which only the compare at the end declares), or the budget is spent.
#
# usage: tools/compare-commits.sh <base> <head> [JMH args...] [--precision P] [--budget 20m] [--forks N]
#                                 [--min-effect 3%] [--fail-on-regression] [--out DIR] [--head-args "ARGS"]
#   --forks N       forks per side without --precision (default 10); the most per side with it (default 60)
#   --out DIR       where the two run folders go (default results/compare-<base>-<head>-<time>)
#   --head-args A   extra JMH args for the head side only, e.g. the calibration aid:
#                   tools/compare-commits.sh HEAD HEAD -p model=resnet-tiny --head-args "-jvmArgsAppend -Dinferbench.slowdown=10"
#                   (the same commit on both sides without it is an A/A comparison)
# A side given as "." is this checkout as it is (its target/benchmarks.jar, not rebuilt): `. .` is an A/A run of the
# working tree without building twice. A side given as a folder holding target/benchmarks.jar (a checkout built
# before) is used as it is too: tools/aa-proof.sh builds a commit twice once and compares the two builds many times.
# Exit codes: those of `compare` (0 pass, 1 regression with --fail-on-regression), 2 bad input or a commit that
# does not build. INFERBENCH_JAVA_OPTS is passed to every java command (e.g. -Djmh.ignoreLock=true).
set -euo pipefail

die() { echo "compare-commits: $*" >&2; exit 2; }
[[ $# -ge 2 ]] || die "expected: tools/compare-commits.sh <base> <head> [JMH args] [--precision P] [--budget 20m]"
base=$1 head=$2; shift 2
precision="" budget="" forks="" min_effect="3%" fail="" out="" jmh=() head_args=
while [[ $# -gt 0 ]]; do
  case $1 in
    --precision) precision=${2:?--precision needs a value, e.g. 2%}; shift 2 ;;
    --budget) budget=${2:?--budget needs a value, e.g. 20m}; shift 2 ;;
    --forks) forks=${2:?--forks needs a number}; shift 2 ;;
    --min-effect) min_effect=${2:?--min-effect needs a value, e.g. 3%}; shift 2 ;;
    --fail-on-regression) fail=--fail-on-regression; shift ;;
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    --head-args) head_args=${2?--head-args needs a value}; shift 2 ;;
    *) jmh+=("$1"); shift ;;
  esac
done
seconds() { # 90s, 20m, 1h -> seconds
  case $1 in *h) echo $(( ${1%h} * 3600 ));; *m) echo $(( ${1%m} * 60 ));; *s) echo "${1%s}";;
    *[!0-9]*|'') die "--budget '$1' is not a duration; expected e.g. 90s, 20m, 1h";; *) echo "$1";; esac
}
budget_s=$([[ -n $budget ]] && seconds "$budget" || echo 0)
[[ -n $forks ]] || forks=$([[ -n $precision ]] && echo 60 || echo 10)
[[ $forks =~ ^[0-9]+$ && $forks -ge 3 ]] || die "--forks '$forks' is not a whole number >= 3"

# a side given as a folder that holds a built target/benchmarks.jar (another checkout) is used as it is
for side in base head; do
  [[ ${!side} != . && -d ${!side} && -f ${!side}/target/benchmarks.jar ]] && printf -v "$side" '%s' "$(cd "${!side}" && pwd)"
done
repo=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git checkout"
cd "$repo"
sha_of() { if [[ $1 == . ]]; then echo "worktree"; elif [[ $1 == /* && -f $1/target/benchmarks.jar ]]; then echo "built"
  else git rev-parse --verify --quiet "$1^{commit}" \
    || die "unknown commit '$1'; expected a branch, tag, sha, . (this checkout) or a checkout with target/benchmarks.jar"; fi; }
base_sha=$(sha_of "$base") || exit 2
head_sha=$(sha_of "$head") || exit 2
java_opts=(${INFERBENCH_JAVA_OPTS:-})
compare_jar=$repo/target/benchmarks.jar
[[ -f $compare_jar ]] || die "$compare_jar is missing; build this checkout first: mvn -q package -DskipTests"
out=${out:-results/compare-${base_sha:0:7}-${head_sha:0:7}-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"; out=$(cd "$out" && pwd)

trees=$(mktemp -d)
cleanup() { for p in "${pid[@]:-}"; do [[ -n $p ]] && { kill "$p" 2>/dev/null || true; }; done
  for t in base head; do [[ -d $trees/$t && ! -L $trees/$t ]] && git worktree remove --force "$trees/$t" >/dev/null 2>&1; done; rm -rf "$trees"; }
trap cleanup EXIT
for side in base head; do
  sha=$([[ $side == base ]] && echo "$base_sha" || echo "$head_sha")
  if [[ $sha == worktree ]]; then ln -s "$repo" "$trees/$side"; continue; fi
  if [[ $sha == built ]]; then ln -s "${!side}" "$trees/$side"; continue; fi
  git worktree add --detach --quiet "$trees/$side" "$sha"
  echo "[compare-commits] building $side ${sha:0:7} ..."
  (cd "$trees/$side" && mvn -q -o package -DskipTests >"$out/build-$side.log" 2>&1) \
    || die "commit ${sha:0:7} ($side) does not build; see $out/build-$side.log"
done

start=$(date +%s)
# One launcher per side for the whole comparison (--paced): each runs one fork when told to and then waits, so a
# fork costs its own JVM only, not a launcher JVM, the run's planning and a report as well (about 3 s per fork
# before). Each launcher reads its go from a FIFO and writes its output into another, which this script copies to
# the side's log line by line with blocking reads: waiting costs no CPU (a polling loop here took a third of a core
# from the forks it waited for).
declare -A pid ended
trap '' PIPE # a launcher that has ended makes a write to its FIFO fail, not this script die
base_go= head_go= base_out= head_out=
launch() { # side: plans the run and waits, ready for its first fork
  local side=$1 extra=()
  [[ $side == head && -n $head_args ]] && read -r -a extra <<<"$head_args"
  mkfifo "$trees/$side.go" "$trees/$side.out"
  (cd "$trees/$side" && exec java "${java_opts[@]}" -jar target/benchmarks.jar "${jmh[@]}" "${extra[@]}" -f "$forks" \
     --run-dir "$out/$side" --paced -v SILENT <"$trees/$side.go" >"$trees/$side.out" 2>&1) &
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
    [[ $line == "[inferbench] paced: ready for the next fork" ]] && return 0
  done
  ended[$side]=1
  return 1
}
go() { if [[ $1 == base ]]; then echo go >&"$base_go"; else echo go >&"$head_go"; fi; } 2>/dev/null
step() { # one fork of one side (it is ready when this is called); false when the side has nothing more to run
  [[ -z ${ended[$1]:-} ]] && go "$1" && until_ready "$1"
}
finish() { # closes the launchers' input: each writes its summary and report and ends
  [[ -n $base_go ]] && exec {base_go}>&-
  [[ -n $head_go ]] && exec {head_go}>&-
  base_go= head_go=
  for side in base head; do
    while until_ready "$side"; do :; done
    wait "${pid[$side]}" 2>/dev/null || true
  done
}
landed() { { find "$out/$1/forks" -name 'fork-*.json' ! -name '*.time.json' 2>/dev/null || true; } | wc -l; }
compare() { java "${java_opts[@]}" -jar "$compare_jar" compare "$out/base" "$out/head" --min-effect "$min_effect" "$@"; }

launch base; launch head
until_ready base || die "the base side did not start; see $out/base.log"
until_ready head || die "the head side did not start; see $out/head.log"
pairs=0 last=0
while :; do
  t0=$(date +%s)
  before=$(landed head)
  step base || true
  step head || true
  pairs=$((pairs + 1)); last=$(( $(date +%s) - t0 ))
  [[ $(landed head) -gt $before ]] || break            # nothing more to run in the plan
  elapsed=$(( $(date +%s) - start ))
  echo "[compare-commits] pair $pairs done (${last}s); base $(landed base) forks, head $(landed head) forks; elapsed ${elapsed}s"
  if [[ -n $precision ]]; then
    status=$(compare --precision "$precision" 2>/dev/null | tail -1 || true)
    echo "[compare-commits] $status"
    [[ $status =~ ^settled\ ([0-9]+)\ of\ ([0-9]+) ]] && [[ ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" ]] && break
  fi
  if [[ $budget_s -gt 0 && $(( elapsed + last )) -gt $budget_s ]]; then
    echo "[compare-commits] budget $budget spent"; break
  fi
done
finish
[[ $(landed base) -gt 0 && $(landed head) -gt 0 ]] || die "no fork landed; see $out/base.log and $out/head.log"
echo "[compare-commits] $base (${base_sha:0:7}) vs $head (${head_sha:0:7}), $(( $(date +%s) - start ))s; runs in $out"
args=($fail)
[[ -n $precision ]] && args+=(--precision "$precision")
compare "${args[@]}"
