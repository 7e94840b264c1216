#!/usr/bin/env bash
# The measurements behind solvers/deepcubea/README.md: batch-weighted A* at DeepCubeA's own
# settings (lambda = 0.6, B = 10,000; the solver's defaults, chosen on development random
# cubes) over the depth suites, random-state-v1 and the first cubes of the DeepCubeA test set
# (imported from DeepCubeA's own pickle; the run's records hold moves, never the set). Run
# from the repository root where `bench` is installed; one thread a worker, 60 s a cube.
# Usage: deepcubea.sh [depths|depth12|set|dev]
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
WORKERS=${WORKERS:-2}
LIMIT=${LIMIT:-10}            # cubes per depth suite
SET_LIMIT=${SET_LIMIT:-100}   # cubes of the DeepCubeA set
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}
DEV=${DEV:-.cubebench/dev/random-dev.jsonl}

run() { "$BENCH" run --no-report --quiet --time-limit 60 --workers "$WORKERS" -s deepcubea "$@"; }
suites() { for d in $(seq -f %02g "$1" "$2"); do printf -- '--suite depth-%s-v1 ' "$d"; done; }

if [[ $STEP == dev ]]; then
  # the choice of B and of meet in the middle, on development random cubes (never a suite)
  [[ -f $DEV ]] || python benchmarks/tools/dev_suite.py --random-state --count 200 --out "$DEV"
  run --sweep astar_batch=1000,10000,30000 --set mitm_radius=7 --suite "$DEV" --limit 20 \
    --out .cubebench/dev-runs --run-id deepcubea-dev-batch  # development runs: out of git
  run --sweep mitm_radius=0 --suite "$DEV" --limit 20 --out .cubebench/dev-runs \
    --run-id deepcubea-dev-b10k
fi
if [[ $STEP == all || $STEP == depths ]]; then
  # shellcheck disable=SC2046
  run $(suites 1 20) --suite random-state-v1 --limit "$LIMIT" --run-id deepcubea-astar-depths
fi
if [[ $STEP == all || $STEP == depth12 ]]; then
  run --suite depth-12-v1 --limit 100 --run-id deepcubea-astar-depth12
fi
if [[ $STEP == all || $STEP == set ]]; then
  "$BENCH" suites list | grep -q deepcubea-test-v1 \
    || "$BENCH" suites import deepcubea "$PKL" --name deepcubea-test-v1
  run --suite deepcubea-test-v1 --limit "$SET_LIMIT" --run-id deepcubea-set-deepcubea
fi
