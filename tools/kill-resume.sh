#!/usr/bin/env bash
# The kill -9 experiment: starts a multi-cell run, kills the launcher with SIGKILL at random moments (resuming after
# each kill), then resumes to the end. For every kill it prints how many forks had landed just before the kill and
# how many the folder holds afterwards, and whether jmh-result.json is valid JMH JSON; at the end the resumed run's
# forks per cell. Nothing finished may be lost: "after" >= "before" every time.
#
#   tools/kill-resume.sh [KILLS] [JMH args...]      e.g. tools/kill-resume.sh 5 -p model=mlp-tiny,resnet-tiny
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-5}; shift || true
args=("$@"); [ ${#args[@]} -eq 0 ] && args=(-p model=mlp-tiny,resnet-tiny -p batchSize=1,2,4 -f 3 -wi 1 -w 200ms -i 2 -r 300ms)
jar=$PWD/target/benchmarks.jar
work=$(mktemp -d); run=$work/run
landed() { find "$run/forks" -name 'fork-*.record.json' 2>/dev/null | wc -l; }
valid() { python3 -c "
import json,sys
d=json.load(open(sys.argv[1])); assert isinstance(d,list)
print(sum(c['forks'] for c in d))" "$run/jmh-result.json" 2>/dev/null || echo invalid; }
RANDOM=${SEED:-42}
printf '%-5s %-9s %-15s %-14s %s\n' kill "after(s)" "landed before" "landed after" "forks in jmh-result.json"
cmd=(java -jar "$jar" "${args[@]}" --run-dir "$run")
for k in $(seq 1 "$kills"); do
  delay=$(( 2 + RANDOM % 6 ))
  ( cd "$work" && exec "${cmd[@]}" >>"$work/out.txt" 2>&1 ) & pid=$!
  sleep "$delay"
  before=$(landed); kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
  sleep 0.5
  printf '%-5s %-9s %-15s %-14s %s\n' "$k" "$delay" "$before" "$(landed)" "$(valid)"
  cmd=(java -jar "$jar" --resume "$run")
done
( cd "$work" && java -jar "$jar" --resume "$run" >>"$work/out.txt" 2>&1 )
echo "resumed to the end: $(landed) forks landed; forks per cell in jmh-result.json:"
python3 -c "
import json,sys
for c in json.load(open(sys.argv[1])):
    print('  ', ' '.join(f'{k}={v}' for k,v in c['params'].items()), 'forks =', c['forks'], ' iterations per fork =', [len(f) for f in c['primaryMetric']['rawDataHistogram']])" "$run/jmh-result.json"
echo "run folder: $run"
