#!/usr/bin/env bash
# The measurements behind solvers/cayleypy_peer/README.md and the quarter-turn rows of
# solvers/cayley_mlp/README.md: CayleyPy's own library against this project's cayley-mlp at
# equal training states, size, schedule and beam width (QTM). Run from the repository root
# where `bench` is installed with the peers extra (pip install '.[peers]'). Usage:
#   benchmarks/cards/peers.sh equal      # cayley-mlp's recipe trained as cayleypy's model was
#   benchmarks/cards/peers.sh random     # random-state-v1, first 100 -> results/peers-random
#   benchmarks/cards/peers.sh shipped    # the shipped cayley-mlp there -> results/cayley-mlp-qtm-random
#   benchmarks/cards/peers.sh deepcubea  # the DeepCubeA set, first 100 (kept out of git)
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
EQUAL=${EQUAL:-.cubebench/equal-states}
SHIPPED=solvers/cayley_mlp/checkpoints
WIDTHS=${WIDTHS:-512,2048}
LIMIT=${LIMIT:-100}
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}

run() { "$BENCH" run --no-report --quiet --time-limit 60 "$@"; }

if [[ $STEP == all || $STEP == equal ]]; then
  # the budget (10,000 steps of 9,984 states), schedule and size of cayleypy's shipped model
  "$BENCH" train cayley-mlp --metric qtm --steps 10000 --hidden1 512 --hidden2 128 \
      --residual-blocks 1 --eval-every-steps 500 --threads 1 --out "$EQUAL" --fresh --replace
fi
if [[ $STEP == all || $STEP == random ]]; then
  # cayleypy's model in CayleyPy's beam and in this project's value beam, and cayley-mlp's
  # equal-states model, each at two widths; one worker, one core a cube
  run --workers 1 -s cayleypy -s cayley-mlp --sweep cayleypy.search=cayleypy,cubebench \
      --sweep cayleypy.beam_width="$WIDTHS" --sweep cayley-mlp.checkpoint="$EQUAL" \
      --sweep cayley-mlp.beam_width="$WIDTHS" --suite random-state-v1 --limit "$LIMIT" \
      --run-id peers-random
fi
if [[ $STEP == all || $STEP == shipped ]]; then
  run --workers 2 -s cayley-mlp --sweep beam_width="$WIDTHS" --suite random-state-v1 \
      --limit "$LIMIT" --run-id cayley-mlp-qtm-random
fi
if [[ $STEP == all || $STEP == deepcubea ]]; then
  "$BENCH" suites list | grep -q deepcubea-test-v1 \
    || "$BENCH" suites import deepcubea "$PKL" --name deepcubea-test-v1
  # the set's moves would encode it: this run stays out of git (--out outside results/)
  run --workers 2 -s cayleypy -s cayley-mlp --sweep cayleypy.beam_width="$WIDTHS" \
      --sweep cayley-mlp.checkpoint="$SHIPPED,$EQUAL" --sweep cayley-mlp.beam_width="$WIDTHS" \
      --suite deepcubea-test-v1 --limit "$LIMIT" --out .cubebench/runs --run-id peers-deepcubea
fi
