#!/usr/bin/env bash
# The measurements behind solvers/mlp_kociemba/README.md; run from the repository root where
# `bench` is installed. Each step is a plain `bench run`, one worker on one thread unless
# WORKERS says otherwise, so the time per cube is one core's; runs land in results/.
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE TF_CPP_MIN_LOG_LEVEL=2
BENCH=${BENCH:-bench}
STEP=${1:-all}
OUT=${OUT:-results}
WORKERS=${WORKERS:-1}
CHECKPOINT=${CHECKPOINT:-}  # another checkpoint folder (e.g. the integer-input model)
TAG=${TAG:-}

run() {
  "$BENCH" run --no-report --quiet --workers "$WORKERS" --out "$OUT" -s mlp-kociemba \
      --set threads=1 ${CHECKPOINT:+--set checkpoint=$CHECKPOINT} "$@"
}
depths=(); for d in $(seq -w 1 20); do depths+=(--suite "depth-$d-v1"); done
deep=(--suite depth-10-v1 --suite depth-15-v1 --suite depth-20-v1 --suite random-state-v1)

if [[ $STEP == all || $STEP == greedy ]]; then
  # the curve over depths, greedy with the policy averaged over the 48 symmetries
  # (symmetries=full, what search=greedy does by default)
  run --set search=greedy --set symmetries=full "${depths[@]}" \
      --limit "${GREEDY_LIMIT:-100}" --run-id "mlp-kociemba${TAG}-greedyfull-depths"
fi
if [[ $STEP == all || $STEP == uniform ]]; then
  # all of depth 7 (the seed's limit) and the seed's own kind of scramble (10 moves drawn
  # independently, which may cancel), averaged and plain (the seed's way): one sweep
  run --set search=greedy --sweep symmetries=full,none --suite depth-07-v1 \
      --suite uniform-moves-10-v1 --run-id "mlp-kociemba${TAG}-greedy"
fi
if [[ $STEP == all || $STEP == beam ]]; then
  for width in ${BEAM_WIDTHS:-1024 4096}; do
    run --set search=beam --set symmetries=none --set beam_width="$width" "${deep[@]}" --limit "${BEAM_LIMIT:-100}" \
        --time-limit 60 --run-id "mlp-kociemba${TAG}-beam-$width"
  done
fi
