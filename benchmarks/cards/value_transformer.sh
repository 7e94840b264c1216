#!/usr/bin/env bash
# The measurements behind solvers/value_transformer/README.md: the seed-001 table rows on
# this project's suites. Run from the repository root where `bench` is installed; WORKERS
# workers (1 by default) on THREADS threads each (1 by default, so the time per cube is one
# core's), on DEVICE (the solver's default, cpu, unless set: DEVICE=cuda puts the model on a
# GPU; BATCH then sets how many states go to it a call). Steps:
#   depth10    w=300 on the first 100 of depth-10-v1        (seed: 100%, 10.0 HTM)
#   depth15    w=1000 on the first 100 of depth-15-v1, 60 s (seed: 89%, 19.7 HTM)
#   random     w=1000 on the first 20 random states, 60 s   (paired with the previous model)
#   random4000 the seed's headline, w=4000 on the first 50 random states, both cores a cube
#              (THREADS=2) and RANDOM_LIMIT_S seconds (300)  (seed: 100%, 21.1 HTM)
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
OUT=${OUT:-results}
CHECKPOINT=${CHECKPOINT:-}  # another checkpoint folder (e.g. the plain-phase model)
TAG=${TAG:-}
THREADS=${THREADS:-1}
WORKERS=${WORKERS:-1}
DEVICE=${DEVICE:-}
BATCH=${BATCH:-}

run() {
  "$BENCH" run --no-report --quiet --workers "$WORKERS" --out "$OUT" -s value-transformer \
      --set threads="$THREADS" ${CHECKPOINT:+--set checkpoint=$CHECKPOINT} \
      ${DEVICE:+--set device=$DEVICE} ${BATCH:+--set batch_size=$BATCH} "$@"
}

if [[ $STEP == all || $STEP == depth10 ]]; then
  run --set beam_width=300 --suite depth-10-v1 --limit "${D10_LIMIT:-100}" \
      --run-id "value-transformer${TAG}-w300-depth10"
fi
if [[ $STEP == all || $STEP == depth15 ]]; then
  run --set beam_width=1000 --suite depth-15-v1 --limit "${D15_LIMIT:-100}" --time-limit 60 \
      --run-id "value-transformer${TAG}-w1000-depth15"
fi
if [[ $STEP == all || $STEP == random ]]; then
  run --set beam_width="${RANDOM_WIDTH:-1000}" --suite random-state-v1 \
      --limit "${RANDOM_LIMIT:-20}" --time-limit 60 \
      --run-id "value-transformer${TAG}-w${RANDOM_WIDTH:-1000}-random"
fi
if [[ $STEP == all || $STEP == random4000 ]]; then
  run --set beam_width=4000 --suite random-state-v1 --limit "${R4000_LIMIT:-50}" \
      --time-limit "${RANDOM_LIMIT_S:-300}" --run-id "value-transformer${TAG}-w4000-random"
fi
