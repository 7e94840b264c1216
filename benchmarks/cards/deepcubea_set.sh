#!/usr/bin/env bash
# The flagship quarter-turn model on the DeepCubeA test set: the measurements behind the
# cayley-mlp card and the README's field table. Run from the repository root where `bench`
# is installed; ../shared/data (or DEEPCUBEA_PKL=...) provides the set, imported once under
# $CUBEBENCH_HOME. Settings are chosen on development cubes (benchmarks/tools/dev_suite.py), never
# on the set. Usage:
#   benchmarks/cards/deepcubea_set.sh dev      # meet in the middle, precision and widths on 50/20
#                                        # random development cubes -> results/cayley-mlp-dev-*
#   benchmarks/cards/deepcubea_set.sh dev-starts # two starts (the cube and its inverse) at W =
#                                        # 65,536 on the same 50 -> .cubebench/dev-runs/cayley-mlp-dev-starts
#   benchmarks/cards/deepcubea_set.sh dev-wide # W = 65,536 against 131,072, one core a cube, on 50
#                                        # development cubes -> .cubebench/dev-runs/cayley-mlp-dev-wide
#                                        # (14 and 26 s a cube on a 2-core AMD EPYC: 20 min
#                                        # with two workers, twice that with WORKERS=1)
#   benchmarks/cards/deepcubea_set.sh set      # the whole set with kociemba beside it, resumable
#                                        # (LIMIT=N extends the run to the first N cubes;
#                                        # STARTS=1 for the one-start row)
#   benchmarks/cards/deepcubea_set.sh frontier # narrower widths and the other solvers on the
#                                        # first 100, one core a cube -> the report
#                                        # reports/deepcubea-set (length against time)
#   benchmarks/cards/deepcubea_set.sh table    # the leaderboard with the published rows
set -euo pipefail
export OMP_WAIT_POLICY=PASSIVE
BENCH=${BENCH:-bench}
STEP=${1:-all}
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}
DEV=${DEV:-.cubebench/dev/random-dev.jsonl}
DEVOUT=${DEVOUT:-.cubebench/dev-runs}  # development runs stay out of git; their numbers are
                                       # in docs/experiments/cayley-mlp.md
WIDTH=${WIDTH:-65536}         # chosen from the dev timings: fits 60 s a cube on one core
MITM=${MITM:-7}               # the largest quarter-turn table (9.2M states)
STARTS=${STARTS:-2}            # the cube and its inverse: 0.44 QTM shorter on 50 dev cubes
LIMIT=${LIMIT:-1000}
# STARTS=1 gives results/deepcubea-set-cayley-mlp, the one-start row the card cites beside
SET_RUN=results/deepcubea-set-cayley-mlp$([[ $STARTS == 1 ]] || echo "-${STARTS}starts")
ONE_START=results/deepcubea-set-cayley-mlp

run() { "$BENCH" run --no-report --quiet --time-limit 60 "$@"; }

if [[ $STEP == all || $STEP == dev ]]; then
  [[ -f $DEV ]] || python benchmarks/tools/dev_suite.py --random-state --count 200 --out "$DEV"
  # meet in the middle and precision at a cheap width, 50 cubes, one core a cube
  run -s cayley-mlp --set beam_width=2048 --sweep mitm_radius=0,5,6,7 \
      --suite "$DEV" --limit 50 --workers 2 --out "$DEVOUT" --run-id cayley-mlp-dev-mitm
  run -s cayley-mlp --set beam_width=2048 --set mitm_radius="$MITM" \
      --sweep precision=fp32,bf16,int8 --suite "$DEV" --limit 50 --workers 2 \
      --out "$DEVOUT" --run-id cayley-mlp-dev-precision
  # widths: time per cube on one core (two cubes at a time)
  run -s cayley-mlp --set mitm_radius="$MITM" --sweep beam_width=16384,32768,65536,131072 \
      --suite "$DEV" --limit 20 --workers 2 --time-limit 120 --out "$DEVOUT" --run-id cayley-mlp-dev-widths
fi
if [[ $STEP == dev-wide ]]; then
  # the widths that fit 60 s a cube on one core
  run -s cayley-mlp --set mitm_radius="$MITM" --sweep beam_width=65536,131072 \
      --suite "$DEV" --limit 50 --workers "${WORKERS:-2}" --time-limit 120 \
      --out "$DEVOUT" --run-id cayley-mlp-dev-wide
fi
if [[ $STEP == dev-starts ]]; then
  # the inverse as a second start, at the cost of a doubled width
  # (one start at this width is cayley-mlp-dev-wide's first entry)
  run -s cayley-mlp --set mitm_radius="$MITM" --set beam_width="$WIDTH" --set starts=2 \
      --suite "$DEV" --limit 50 --workers "${WORKERS:-2}" --time-limit 120 \
      --out "$DEVOUT" --run-id cayley-mlp-dev-starts
fi
if [[ $STEP == all || $STEP == set ]]; then
  "$BENCH" suites list | grep -q deepcubea-test-v1 \
    || "$BENCH" suites import deepcubea "$PKL" --name deepcubea-test-v1
  if [[ -d $SET_RUN ]]; then
    "$BENCH" run --resume "$SET_RUN" --limit "$LIMIT" --workers "${WORKERS:-2}" --no-report \
      --quiet
  else
    # two workers of one thread: every cube gets one core and 60 s (WORKERS=1 while the
    # other core is busy; a stopped run continues with --resume, as above)
    run -s cayley-mlp -s kociemba --set cayley-mlp.beam_width="$WIDTH" \
        --set cayley-mlp.mitm_radius="$MITM" --set cayley-mlp.starts="$STARTS" \
        --suite deepcubea-test-v1 --limit "$LIMIT" --workers "${WORKERS:-2}" \
        --run-id "$(basename "$SET_RUN")"
  fi
fi
if [[ $STEP == all || $STEP == frontier ]]; then
  # the set run gives cayley-mlp at $WIDTH with two starts and kociemba;
  # results/deepcubea-set-deepcubea
  # (benchmarks/cards/deepcubea.sh set) gives deepcubea at DeepCubeA's settings
  run -s cayley-mlp -s policy-mlp -s deepcubea --set cayley-mlp.mitm_radius="$MITM" \
      --sweep cayley-mlp.beam_width=1024,4096,16384 --set policy-mlp.metric=qtm \
      --sweep policy-mlp.beam_width=1024,4096 --set deepcubea.astar_batch=1000 \
      --suite deepcubea-test-v1 --limit 100 --workers "${WORKERS:-1}" \
      --run-id deepcubea-set-frontier
  # the one-start run beside it where it is here (STARTS=1 ... set measures it)
  others=(); [[ -d $ONE_START && $ONE_START != "$SET_RUN" ]] && others=("$ONE_START")
  "$BENCH" report "$SET_RUN" "${others[@]}" results/deepcubea-set-deepcubea \
      results/deepcubea-set-frontier \
      --first 100 --out reports/deepcubea-set \
      --title "The DeepCubeA test set, first 100 cubes: length against time"
fi
if [[ $STEP == all || $STEP == table ]]; then
  "$BENCH" leaderboard "$SET_RUN"
fi
