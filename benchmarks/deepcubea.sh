#!/usr/bin/env bash
# The measurements behind solvers/deepcubea/README.md (issue 18): batch-weighted A* with the
# shipped value-iteration network over depths 1..20 and random-state-v1 for two values of
# lambda, and on the DeepCubeA test set imported from DeepCubeA's own pickle. Run from the
# repository root where `bench` is installed. Two workers of one thread each, 60 s a cube.
# Runs on the DeepCubeA set stay out of git (their moves would encode the set); their table
# is written to reports/deepcubea/deepcubea-solver.md. Usage: deepcubea.sh [depths|random|set]
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
LIMIT=${LIMIT:-100}            # cubes per shallow suite
DEEP_LIMIT=${DEEP_LIMIT:-100}  # cubes per suite of depth 13..20 and random-state-v1
SET_LIMIT=${SET_LIMIT:-100}    # cubes of the DeepCubeA set
LAMBDAS=${LAMBDAS:-0.6,0.3}
BATCH=${BATCH:-1000}
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}

run() {
  "$BENCH" run --no-report --quiet --time-limit 60 --workers 2 -s deepcubea \
    --set deepcubea.astar_batch="$BATCH" --sweep deepcubea.weight="$LAMBDAS" "$@"
}
suites() { for d in $(seq -f %02g "$1" "$2"); do printf -- '--suite depth-%s-v1 ' "$d"; done; }

if [[ $STEP == all || $STEP == depths ]]; then
  # shellcheck disable=SC2046
  run $(suites 1 12) --limit "$LIMIT" --run-id deepcubea-depths-01-12
  # shellcheck disable=SC2046
  run $(suites 13 20) --limit "$DEEP_LIMIT" --run-id deepcubea-depths-13-20
fi
if [[ $STEP == all || $STEP == random ]]; then
  run --suite random-state-v1 --limit "$DEEP_LIMIT" --run-id deepcubea-random-state
fi
if [[ $STEP == all || $STEP == depths || $STEP == random ]]; then
  "$BENCH" report results/deepcubea-depths-* results/deepcubea-random-state \
    --out reports/deepcubea-solver --title "deepcubea: batch-weighted A* over depths"
fi
if [[ $STEP == all || $STEP == set ]]; then
  "$BENCH" suites list | grep -q deepcubea-test-v1 \
    || "$BENCH" suites import deepcubea "$PKL" --name deepcubea-test-v1
  run --suite deepcubea-test-v1 --limit "$SET_LIMIT" --out results/deepcubea \
    --run-id deepcubea-solver-set
  mkdir -p reports/deepcubea
  "$BENCH" leaderboard results/deepcubea/deepcubea-solver-set > reports/deepcubea/deepcubea-solver.md
fi
