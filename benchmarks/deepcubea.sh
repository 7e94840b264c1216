#!/usr/bin/env bash
# The measurements behind solvers/deepcubea/README.md (issue 18): batch-weighted A* with the
# shipped value-iteration network (B = 1000) over depths 1..20 and random-state-v1 at two
# values of lambda, and on the DeepCubeA test set imported from DeepCubeA's own pickle. Run
# from the repository root where `bench` is installed; 2 workers x 1 thread, 60 s a cube.
# Runs on the DeepCubeA set stay out of git (their moves would encode the set); their table
# goes to reports/deepcubea/deepcubea-solver.md. Usage: deepcubea.sh [depths|random|set|lambda]
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
LIMIT=${LIMIT:-20}            # cubes per depth suite (CPU time: 2 cores for the session)
RANDOM_LIMIT=${RANDOM_LIMIT:-50}
SET_LIMIT=${SET_LIMIT:-50}    # cubes of the DeepCubeA set
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}

run() { "$BENCH" run --no-report --quiet --time-limit 60 --workers 2 -s deepcubea "$@"; }
suites() { for d in $(seq -f %02g "$1" "$2"); do printf -- '--suite depth-%s-v1 ' "$d"; done; }

if [[ $STEP == all || $STEP == depths ]]; then
  # shellcheck disable=SC2046
  run --set weight=0.2 $(suites 1 20) --limit "$LIMIT" --run-id deepcubea-astar-l0.2-depths
fi
if [[ $STEP == all || $STEP == set ]]; then
  "$BENCH" suites list | grep -q deepcubea-test-v1 \
    || "$BENCH" suites import deepcubea "$PKL" --name deepcubea-test-v1
  run --set weight=0.2 --suite deepcubea-test-v1 --limit "$SET_LIMIT" --out results/deepcubea \
    --run-id deepcubea-solver-set
  mkdir -p reports/deepcubea
  "$BENCH" leaderboard results/deepcubea/deepcubea-solver-set > reports/deepcubea/deepcubea-solver.md
fi
if [[ $STEP == all || $STEP == random ]]; then
  run --set weight=0.2 --suite random-state-v1 --limit "$RANDOM_LIMIT" \
    --run-id deepcubea-astar-random-state
fi
if [[ $STEP == all || $STEP == lambda ]]; then
  # DeepCubeA's lambda; past depth 12 it times out on nearly every cube with this model
  # shellcheck disable=SC2046
  run --set weight=0.6 $(suites 1 12) --limit "$LIMIT" --run-id deepcubea-astar-l0.6-depths
fi
if [[ $STEP == all || $STEP == report ]]; then
  "$BENCH" report results/deepcubea-astar-* --out reports/deepcubea-solver \
    --title "deepcubea: batch-weighted A* (B = 1000) over depths and random states"
fi
