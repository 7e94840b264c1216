#!/usr/bin/env bash
# The peers' own published runs on the DeepCubeA test set beside the flagship's run: imports
# EfficientCube's solutions at every published beam width and DeepCubeA's lengths (from the
# peers' repositories; ../shared/data/peers/published in this workplace) as run folders
# under .cubebench/peers (the peers' data: never committed), prints the paired comparisons
# and writes the report reports/deepcubea-set-peers. Run from the repository root where
# `bench` is installed:
#   benchmarks/cards/peers_published.sh
set -euo pipefail
BENCH=${BENCH:-bench}
PUBLISHED=${PUBLISHED:-../shared/data/peers/published}
PKL=${DEEPCUBEA_PKL:-../shared/data/peers/deepcubea-cube3-test-data_0.pkl}
OUT=${OUT:-.cubebench/peers}
SUITE=deepcubea-test-v1
FLAGSHIP=results/deepcubea-set-cayley-mlp-2starts

$BENCH suites show "$SUITE" --limit 1 >/dev/null 2>&1 ||
  $BENCH suites import deepcubea "$PKL" --name "$SUITE"
mkdir -p "$OUT"
for file in "$PUBLISHED"/efficientcube-cube3/beam_width_*.pkl; do
  width=$(basename "$file" .pkl | sed 's/beam_width_//')
  [ -d "$OUT/published-efficientcube-beam_width-$width" ] ||
    $BENCH runs import efficientcube "$file" --suite "$SUITE" --out "$OUT"
done
[ -d "$OUT/published-deepcubea-published" ] ||
  $BENCH runs import deepcubea-output "$PUBLISHED/deepcubea-cube3-output.txt" --suite "$SUITE" \
    --out "$OUT"
for width in 16384 32768 65536 131072 262144; do
  $BENCH compare "$FLAGSHIP" "$OUT/published-efficientcube-beam_width-$width" \
    --base cayley-mlp --new "efficientcube[beam_width=$width]"
done
$BENCH compare "$FLAGSHIP" "$OUT/published-deepcubea-published" --base cayley-mlp \
  --new deepcubea-published --claims deepcubea-published
$BENCH report "$FLAGSHIP" "$OUT"/published-efficientcube-beam_width-* \
  "$OUT/published-deepcubea-published" --out reports/deepcubea-set-peers --baseline cayley-mlp \
  --claims deepcubea-published \
  --title "The DeepCubeA test set: the flagship beside the peers' own published answers"
