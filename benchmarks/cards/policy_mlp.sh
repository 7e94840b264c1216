#!/usr/bin/env bash
# The measurements behind solvers/policy_mlp/README.md; run from the repository root in an
# environment where `bench` is installed (e.g. `python3 -m tox -e test --notest`, then
# `.tox/test/bin/bench`). Each step is a plain `bench run`; runs land in results/.
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
PYTHON=${PYTHON:-python}  # the same environment as $BENCH
STEP=${1:-all}

run() { "$BENCH" run --no-report --quiet --out results "$@"; }

if [[ $STEP == all || $STEP == random ]]; then
  # headline: beam width 4096 on all 1000 random-state cubes; one worker with two threads,
  # so the time per cube is what one search takes on this 2-core machine
  run -s policy-mlp --set beam_width=4096 --set threads=2 --workers 1 \
      --suite random-state-v1 --time-limit 60 --run-id policy-mlp-w4096-random
fi
if [[ $STEP == all || $STEP == depths ]]; then
  # the curve over scramble depths 1..20 at the same width
  suites=(); for d in $(seq -w 1 20); do suites+=(--suite "depth-$d-v1"); done
  # (two workers with one thread each use both cores for throughput rather than latency;
  # the committed curve is the first 500 cubes of each depth, about an hour here)
  limit=${DEPTH_LIMIT:-500}
  run -s policy-mlp --set beam_width=4096 --set threads="${DEPTH_THREADS:-1}" \
      --workers "${DEPTH_WORKERS:-2}" "${suites[@]}" --limit "$limit" \
      --time-limit 60 --run-id "policy-mlp-w4096-depths${DEPTH_TAG--$limit}"
  "$BENCH" report "results/policy-mlp-w4096-depths${DEPTH_TAG--$limit}" \
      --out reports/policy-mlp-depths --title "policy-mlp, beam W=4096, depths 1-20 ($limit cubes each)"
fi
if [[ $STEP == all || $STEP == quality ]]; then
  # the quality setting: a wider beam, within 60 s per cube, on all 1000 random-state cubes;
  # two workers with one thread each (at this width the search is one core's work per cube)
  width=${QUALITY_WIDTH:-65536}
  limit=(); [[ -n ${QUALITY_LIMIT:-} ]] && limit=(--limit "$QUALITY_LIMIT")
  run -s policy-mlp --set beam_width="$width" --set threads=1 --workers 2 \
      --suite random-state-v1 "${limit[@]}" --time-limit 60 \
      --run-id "policy-mlp-w$width-random-all"
  # the non-learned reference on the same 1000 cubes
  run -s kociemba --workers 1 --suite random-state-v1 --time-limit 60 \
      --run-id kociemba-random-all
  # paired by cube: shorter / equal / longer and the mean difference with its bootstrap CI
  "$PYTHON" benchmarks/paired_lengths.py results/kociemba-random-all \
      "results/policy-mlp-w$width-random-all" --suite random-state-v1
fi
if [[ $STEP == all || $STEP == deepcubea ]]; then
  # DeepCubeA's test set, imported from ../shared/data (never committed: runs go to /tmp)
  "$BENCH" suites import deepcubea ../shared/data/peers/deepcubea-cube3-test-data_0.pkl \
      --name deepcubea-test-v1 --overwrite
  run -s policy-mlp --set beam_width=4096 --set threads=2 --workers 1 \
      --suite deepcubea-test-v1 --limit "${DEEPCUBEA_LIMIT:-1000}" --time-limit 60 \
      --out /tmp/cubebench-runs --run-id policy-mlp-w4096-deepcubea
fi
