#!/usr/bin/env bash
# The measurements behind solvers/value_transformer/README.md: the seed-001 table rows on
# this project's suites. Run from the repository root where `bench` is installed; one worker
# on one thread, so the time per cube is one core's.
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
OUT=${OUT:-results}
CHECKPOINT=${CHECKPOINT:-}  # another checkpoint folder (e.g. the plain-phase model)
TAG=${TAG:-}

run() {
  "$BENCH" run --no-report --quiet --workers 1 --out "$OUT" -s value-transformer \
      --set threads=1 ${CHECKPOINT:+--set checkpoint=$CHECKPOINT} "$@"
}

if [[ $STEP == all || $STEP == depth10 ]]; then  # seed: w=300, 100%, length 10.0
  run --set beam_width=300 --suite depth-10-v1 --limit "${D10_LIMIT:-100}" \
      --run-id "value-transformer${TAG}-w300-depth10"
fi
if [[ $STEP == all || $STEP == depth15 ]]; then  # seed: w=1000, 89%, length 19.7
  run --set beam_width=1000 --suite depth-15-v1 --limit "${D15_LIMIT:-50}" --time-limit 60 \
      --run-id "value-transformer${TAG}-w1000-depth15"
fi
if [[ $STEP == all || $STEP == random ]]; then  # the widest beam that fits 60 s per cube
  run --set beam_width="${RANDOM_WIDTH:-500}" --suite random-state-v1 \
      --limit "${RANDOM_LIMIT:-20}" --time-limit 60 \
      --run-id "value-transformer${TAG}-w${RANDOM_WIDTH:-500}-random"
fi
