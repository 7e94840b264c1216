#!/usr/bin/env bash
# The measurements behind the README's "The field's table" (issue 15): the DeepCubeA test
# set in the quarter-turn metric, and the time-length frontier on random-state-v1. Run from
# the repository root where `bench` is installed; ../shared/data (or your own copy of
# DeepCubeA's data_0.pkl: DEEPCUBEA_PKL=...) provides the set, imported once under
# $CUBEBENCH_HOME. Runs on the DeepCubeA set stay out of git (their moves would encode the
# set); their table is written to reports/deepcubea/. Usage: field_table.sh [deepcubea|frontier]
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
LIMIT=${LIMIT:-100}           # cubes of the DeepCubeA set per cheap setting
WIDE_LIMIT=${WIDE_LIMIT:-20}  # cubes per setting that takes tens of seconds a cube
OUT=${OUT:-results}
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}

run() { "$BENCH" run --no-report --quiet --time-limit 60 "$@"; }

if [[ $STEP == all || $STEP == deepcubea ]]; then
  "$BENCH" suites list | grep -q deepcubea-test-v1 \
    || "$BENCH" suites import deepcubea "$PKL" --name deepcubea-test-v1
  # two workers of one thread each: every cube gets one core of this 2-core machine
  run -s policy-mlp -s cayley-mlp -s kociemba --set policy-mlp.metric=qtm \
      --set cayley-mlp.metric=qtm --sweep policy-mlp.beam_width=4096 \
      --sweep cayley-mlp.beam_width=4096 --suite deepcubea-test-v1 --limit "$LIMIT" \
      --workers 2 --out "$OUT/deepcubea" --run-id deepcubea-qtm-w4096
fi
if [[ $STEP == all || $STEP == frontier ]]; then
  F=(--suite random-state-v1 --limit "${FRONTIER_LIMIT:-100}" --workers 2)
  run -s kociemba -s policy-mlp -s cayley-mlp --sweep kociemba.max_length=20,21,22,24 \
      --sweep policy-mlp.beam_width=256,1024,4096 --set cayley-mlp.metric=htm \
      --sweep cayley-mlp.beam_width=512,1024,2048 "${F[@]}" --run-id frontier-random-state
  "$BENCH" report results/frontier-random-state --out reports/frontier \
      --title "Time against length on random-state-v1 (first ${FRONTIER_LIMIT:-100})"
fi
if [[ $STEP == all || $STEP == wide ]]; then
  # the widest beams that fit 60 s a cube with both cores on one cube (1 worker x 2 threads)
  run -s policy-mlp -s cayley-mlp --set policy-mlp.metric=qtm --set cayley-mlp.metric=qtm \
      --set policy-mlp.threads=2 --set cayley-mlp.threads=2 \
      --sweep policy-mlp.beam_width=65536 --sweep cayley-mlp.beam_width=16384 \
      --suite deepcubea-test-v1 --limit "$WIDE_LIMIT" --workers 1 --out "$OUT/deepcubea" \
      --run-id deepcubea-qtm-wide
fi
if [[ $STEP == all || $STEP == deepcubea || $STEP == wide ]]; then
  mkdir -p reports/deepcubea
  "$BENCH" leaderboard "$OUT"/deepcubea/deepcubea-* > reports/deepcubea/table.md
fi
