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
depths=(); for d in $(seq -w 1 20); do depths+=(--suite "depth-$d-v1"); done

if [[ $STEP == all || $STEP == greedy ]]; then
  # the seed's decoding: all 1000 cubes of depths 7 and 10, then the curve over depths
  run --set search=decode-greedy --suite depth-07-v1 --suite depth-10-v1 \
      --run-id "s2s${TAG}-decode-greedy-7-10"
  run --set search=decode-greedy "${depths[@]}" --limit "${GREEDY_LIMIT:-100}" \
      --run-id "s2s${TAG}-decode-greedy-depths"
fi
if [[ $STEP == all || $STEP == decode-beam ]]; then
  # whole sequences, the encoder run once, every candidate checked on the engine
  width=${DECODE_WIDTH:-64}
  run --set search=decode-beam --set beam_width="$width" --suite depth-07-v1 \
      --suite depth-10-v1 --limit "${DECODE_LIMIT:-1000}" --run-id "s2s${TAG}-decode-beam-$width"
fi
if [[ $STEP == all || $STEP == depth3 ]]; then
  # where each way of solving stands on all 1000 depth-3 cubes
  run --set search=decode-beam --set beam_width=64 --suite depth-03-v1 \
      --run-id "s2s${TAG}-decode-beam-64-depth03"
  run --set search=beam --set beam_width=64 --suite depth-03-v1 --run-id "s2s${TAG}-beam-64-depth03"
fi
if [[ $STEP == all || $STEP == beam ]]; then
  # the decoder's first move as the policy of the search library's beam search
  for width in ${BEAM_WIDTHS:-256 1024}; do
    run --set search=beam --set beam_width="$width" --suite depth-15-v1 --suite depth-20-v1 \
        --suite random-state-v1 --limit "${BEAM_LIMIT:-100}" --time-limit 60 \
        --run-id "s2s${TAG}-beam-$width"
  done
fi
if [[ $STEP == qtm ]]; then
  # the quarter-turn model in its own metric: greedy on all 1000 cubes of 1..10 quarter
  # turns (the seed's decoding), then beam decoding at width 64 on all 1000 of 6
  qdepths=(); for d in $(seq -w 1 10); do qdepths+=(--suite "qdepth-$d-v1"); done
  run --set metric=qtm --set search=decode-greedy "${qdepths[@]}" \
      --run-id "s2s-qtm${TAG}-decode-greedy-qdepths"
  run --set metric=qtm --set search=decode-beam --set beam_width=64 --suite qdepth-06-v1 \
      --run-id "s2s-qtm${TAG}-decode-beam-64-qdepth06"
fi
