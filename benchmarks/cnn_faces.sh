#!/usr/bin/env bash
# The measurements behind solvers/cnn_faces/README.md; run from the repository root where
# `bench` is installed. Each step is a plain `bench run` with one worker on one thread, so
# the time per cube is one core's (run two steps side by side on a 2-core machine).
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE TF_CPP_MIN_LOG_LEVEL=2
BENCH=${BENCH:-bench}
STEP=${1:-all}
OUT=${OUT:-results}
CHECKPOINT=${CHECKPOINT:-}  # another checkpoint folder (e.g. one trained with --max-depth 10)
TAG=${TAG:-}

run() {
  "$BENCH" run --no-report --quiet --workers 1 --out "$OUT" -s cnn-faces --set threads=1 \
      ${CHECKPOINT:+--set checkpoint=$CHECKPOINT} "$@"
}
depths=(); for d in $(seq -w 1 20); do depths+=(--suite "depth-$d-v1"); done
deep=(--suite depth-10-v1 --suite depth-15-v1 --suite depth-20-v1 --suite random-state-v1)

if [[ $STEP == all || $STEP == greedy ]]; then
  # the seed's way: follow the most likely move, with and without refusing revisits
  for revisit in false true; do
    run --set search=greedy --set avoid_revisits=$revisit "${depths[@]}" \
        --limit "${GREEDY_LIMIT:-100}" --run-id "cnn-faces${TAG}-greedy-avoid-$revisit"
  done
fi
if [[ $STEP == all || $STEP == uniform ]]; then
  # the seed's own kind of scramble (10 independent moves, which may cancel): its 12%
  for revisit in false true; do
    run --set search=greedy --set avoid_revisits=$revisit --suite uniform-moves-10-v1 \
        --run-id "cnn-faces${TAG}-greedy-avoid-$revisit-uniform10"
  done
fi
if [[ $STEP == all || $STEP == beam ]]; then
  for width in ${BEAM_WIDTHS:-1024 4096}; do
    limit=$([[ $width == 1024 ]] && echo "${BEAM1024_LIMIT:-50}" || echo "${BEAM4096_LIMIT:-25}")
    run --set search=beam --set beam_width=$width "${deep[@]}" --limit "$limit" \
        --time-limit 60 --run-id "cnn-faces${TAG}-beam-$width"
  done
fi
