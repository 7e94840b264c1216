#!/usr/bin/env bash
# The measurements behind solvers/seq2seq_transformer/README.md; run from the repository root
# where `bench` is installed. Each step is a plain `bench run`, one worker on one thread unless
# WORKERS says otherwise, so the time per cube is one core's; runs land in results/.
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
OUT=${OUT:-results}
WORKERS=${WORKERS:-1}
CHECKPOINT=${CHECKPOINT:-}  # another checkpoint folder
TAG=${TAG:-}

run() {
  "$BENCH" run --no-report --quiet --workers "$WORKERS" --out "$OUT" -s seq2seq-transformer \
      --set threads=1 ${CHECKPOINT:+--set checkpoint=$CHECKPOINT} "$@"
}
depths=(); for d in $(seq -w 1 10); do depths+=(--suite "depth-$d-v1"); done
qdepths=(); for d in $(seq -w 1 10); do qdepths+=(--suite "qdepth-$d-v1"); done

if [[ $STEP == all || $STEP == qtm ]]; then
  # the quarter-turn model (the default) in its own metric: greedy on all 1000 cubes of 1..10
  # quarter turns (the seed's decoding), beam decoding at width 64 on all 1000 of 6, and
  # greedy on the first 100 of the half-turn depths 1..7
  run --set search=decode-greedy "${qdepths[@]}" --run-id "s2s-qtm${TAG}-decode-greedy-qdepths"
  run --set search=decode-beam --set beam_width=64 --suite qdepth-06-v1 \
      --run-id "s2s-qtm${TAG}-decode-beam-64-qdepth06"
  run --set search=decode-greedy "${depths[@]:0:14}" --limit 100 \
      --run-id "s2s-qtm${TAG}-decode-greedy-depths"
fi
if [[ $STEP == all || $STEP == beam ]]; then
  # the quarter-turn decoder's first move as the policy of the search library's beam search
  for width in ${BEAM_WIDTHS:-256 1024}; do
    run --set search=beam --set beam_width="$width" --suite depth-10-v1 --suite depth-15-v1 \
        --suite random-state-v1 --limit "${BEAM_LIMIT:-100}" --time-limit 60 \
        --run-id "s2s-qtm${TAG}-beam-$width"
  done
fi
if [[ $STEP == all || $STEP == htm ]]; then
  # the half-turn model: the seed's decoding on all 1000 cubes of half-turn depths 1..10
  run --set metric=htm --set search=decode-greedy "${depths[@]}" \
      --run-id "s2s-htm${TAG}-decode-greedy-depths"
fi
