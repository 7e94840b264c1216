#!/usr/bin/env bash
# Prove exact optima of a built-in suite on a many-core machine (a lent GPU machine's CPUs):
# build the optimal solver's large tables, then annotate with one process a core until the
# time is up. What is proved is written into the suite as it comes; the suite file is
# copied to OUTDIR for merging back (benchmarks/tools/merge_optima.py).
#
#   bash benchmarks/tools/annotate_sitting.sh OUTDIR SUITE METRIC LIMIT SECONDS
set -euo pipefail
out=$1 suite=$2 metric=$3 limit=$4 seconds=$5
export CUBEBENCH_HOME=${CUBEBENCH_HOME:-/tmp/cubebench-home} OMP_WAIT_POLICY=PASSIVE
python3 -m pip install -q --no-deps --no-build-isolation -e . >/dev/null
cores=$(nproc)
echo "cores $cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
start=$(date +%s)
python3 -c "from cubebench.solvers.patterns import tables; tables.load('large', '$metric')"
echo "tables built in $(( $(date +%s) - start )) s"
left=$(( seconds - ($(date +%s) - start) ))
# its own process group, so that at the deadline the workers stop with it
setsid bench suites annotate "$suite" --optimal --metric "$metric" --limit "$limit" \
    --time-limit "$left" --workers "$cores" >"$out/annotate.log" 2>&1 &
pid=$!
(sleep "$left"; kill -TERM -- "-$pid") >/dev/null 2>&1 &
wait "$pid" || true
tail -n 3 "$out/annotate.log"
grep -c ": [0-9]" "$out/annotate.log" || true
cp "harness/suites/data/$suite.jsonl" "$out/"
