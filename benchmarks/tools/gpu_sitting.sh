#!/usr/bin/env bash
# A short sitting on a machine with a CUDA GPU: value iteration for the quarter-turn
# cost-to-go network, then the flagship's search on the GPU over the DeepCubeA set's first
# 100 cubes. Everything it makes goes to OUTDIR (a tarball and the log); nothing in the
# checkout changes. Usage, from the repository root with `bench` installed:
#   benchmarks/tools/gpu_sitting.sh OUTDIR
# Environment: DEVICE (cuda), TRAIN_S (seconds of training, 210), ROW_S (seconds for the
# GPU row, 250), WORKERS (searches sharing the GPU, 6), LIMIT (cubes, 100), DATA (a folder
# holding deepcubea-cube3-test.jsonl and peers/deepcubea-cube3-test-data_0.pkl;
# ../shared/data), PARTS ("train row": which parts to run), RUN_ID (the row's run).
#
# Two trainings share the GPU:
#   a  continues the committed run (solvers/deepcubea/checkpoints, DeepCubeA's copy rule)
#      towards its 40,000 steps;
#   b  a new run from the same walk-length weights with a hard target copy every 2,000
#      steps of 16,384 states whatever the loss (DeepCubeA refreshes its target every
#      5,000 iterations of 10,000, when the loss is under 0.06), its budget the sitting.
set -uo pipefail
OUTDIR=${1:?usage: benchmarks/tools/gpu_sitting.sh OUTDIR}
DEVICE=${DEVICE:-cuda}
TRAIN_S=${TRAIN_S:-210}
ROW_S=${ROW_S:-250}
WORKERS=${WORKERS:-6}
LIMIT=${LIMIT:-100}
DATA=${DATA:-../shared/data}
BENCH=${BENCH:-bench}
PARTS=${PARTS:-train row}
WORK=$(mktemp -d)
export OMP_WAIT_POLICY=PASSIVE PYTHONUNBUFFERED=1
mkdir -p "$OUTDIR" "$WORK/runs"
LOG="$OUTDIR/log.txt"
finish() {
  touch "$WORK"/{a,b,row}.log
  tar -C "$WORK" -cf "$OUTDIR/sitting.tar" a b runs a.log b.log row.log 2>>"$LOG"
}
trap finish EXIT
{
  date -u +"start %FT%TZ"
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1
  lscpu | grep -m1 "Model name"
  python3 -c "import torch; print('torch', torch.__version__, torch.cuda.is_available())"
} >>"$LOG" 2>&1

# the meet-in-the-middle table the row needs, built once while the GPU trains
python3 -c "from cubebench.solvers.search.meet import meet_table; meet_table('qtm', 7)" \
  >"$WORK/table.log" 2>&1 &

mkdir -p "$WORK/a" "$WORK/b"
if [[ $PARTS == *train* ]]; then
cp -r solvers/deepcubea/checkpoints/. "$WORK/a"
timeout -s TERM "$TRAIN_S" "$BENCH" train deepcubea --device "$DEVICE" --threads 2 \
  --out "$WORK/a" --reference "$DATA/deepcubea-cube3-test.jsonl" >"$WORK/a.log" 2>&1 &
A=$!
minutes=$(python3 -c "print(round(($TRAIN_S - 40) / 60, 2))")
timeout -s TERM "$TRAIN_S" "$BENCH" train deepcubea --device "$DEVICE" --threads 2 \
  --out "$WORK/b" --init-from solvers/cayley_mlp/checkpoints/cayley-mlp-qtm.json \
  --hidden1 512 --hidden2 128 --residual-blocks 1 --target-update soft --tau 1.0 \
  --update-every 2000 --batch-size 16384 --lr 3e-4 --minutes "$minutes" \
  --eval-every-steps 1000 --fresh --reference "$DATA/deepcubea-cube3-test.jsonl" \
  >"$WORK/b.log" 2>&1 &
B=$!
wait $A; echo "training a exit $?" >>"$LOG"
wait $B; echo "training b exit $?" >>"$LOG"
wait
tail -n 3 "$WORK/table.log" >>"$LOG"
for f in a b; do tail -n 4 "$WORK/$f.log" >>"$LOG"; done
fi

[[ $PARTS == *row* ]] || exit 0
wait  # the table
# the flagship's search on the GPU: the DeepCubeA set's first cubes, 60 s a cube
"$BENCH" suites list 2>/dev/null | grep -q deepcubea-test-v1 \
  || "$BENCH" suites import deepcubea "$DATA/peers/deepcubea-cube3-test-data_0.pkl" \
    --name deepcubea-test-v1 >>"$LOG" 2>&1
timeout -s TERM "$ROW_S" "$BENCH" run -s cayley-mlp --set beam_width=65536 \
  --set mitm_radius=7 --set starts=2 --set device="$DEVICE" --suite deepcubea-test-v1 \
  --limit "$LIMIT" --workers "$WORKERS" --time-limit 60 --no-report --quiet \
  --out "$WORK/runs" --run-id "${RUN_ID:-deepcubea-set-cayley-mlp-gpu}" >"$WORK/row.log" 2>&1
echo "row exit $?" >>"$LOG"
tail -n 5 "$WORK/row.log" >>"$LOG"
date -u +"end %FT%TZ" >>"$LOG"
