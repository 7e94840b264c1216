#!/usr/bin/env bash
# The measurements behind solvers/cnn_faces/README.md; run from the repository root where
# `bench` is installed. Each step is a plain `bench run`, one worker on one thread unless
# WORKERS says otherwise, so the time per cube is one core's.
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE TF_CPP_MIN_LOG_LEVEL=2
BENCH=${BENCH:-bench}
STEP=${1:-all}
OUT=${OUT:-results}
CHECKPOINT=${CHECKPOINT:-}  # another checkpoint folder (e.g. one trained with --max-depth 10)
TAG=${TAG:-}

run() {
  "$BENCH" run --no-report --quiet --workers "${WORKERS:-1}" --out "$OUT" -s cnn-faces --set threads=1 \
      ${CHECKPOINT:+--set checkpoint=$CHECKPOINT} "$@"
}
depths=(); for d in $(seq -w 1 20); do depths+=(--suite "depth-$d-v1"); done
deep=(--suite depth-10-v1 --suite depth-15-v1 --suite depth-20-v1 --suite random-state-v1)

if [[ $STEP == all || $STEP == greedy ]]; then
  # the seed's way, follow the most likely move, with and without refusing revisits (one
  # sweep): the first GREEDY_LIMIT cubes of each depth, and every cube of the seed's own kind
  # of scramble (10 independent moves, which may cancel), where the seed reports 12%
  limited=(); for s in "${depths[@]}"; do
    [[ $s == --suite ]] && limited+=("$s") || limited+=("$s:${GREEDY_LIMIT:-100}")
  done
  run --set search=greedy --sweep avoid_revisits=false,true \
      "${limited[@]}" --suite uniform-moves-10-v1 --run-id "cnn-faces${TAG}-greedy"
fi
if [[ $STEP == all || $STEP == beam ]]; then
  for width in ${BEAM_WIDTHS:-1024 4096}; do
    limit=$([[ $width == 1024 ]] && echo "${BEAM1024_LIMIT:-50}" || echo "${BEAM4096_LIMIT:-25}")
    run --set search=beam --set beam_width=$width "${deep[@]}" --limit "$limit" \
        --time-limit 60 --run-id "cnn-faces${TAG}-beam-$width"
  done
fi
