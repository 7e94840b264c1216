"""The training curve of an accumulating run, over all its sittings, from its model card.

    python benchmarks/cards/training_curve.py solvers/seq2seq_transformer/checkpoints/\\
seq2seq-transformer-qtm.json --out docs/figures/seq2seq-transformer-qtm-curve.png

Plots every per-length accuracy the card's curve holds (``sequence_accuracy_by_length``,
``accuracy_by_depth``), or for a distance model the mean prediction at each walk length
(``mean_by_depth``: how far it puts a state that many random steps out), against samples
seen, with the validation loss beside it and a dotted line where each sitting began, so a
curve that went flat shows which sitting it was.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

BY_LENGTH = ("sequence_accuracy_by_length", "accuracy_by_depth", "mean_by_depth")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("card", type=Path, help="a checkpoint's JSON model card")
    parser.add_argument("--out", type=Path, required=True, help="PNG to write")
    parser.add_argument("--lengths", type=int, nargs="*", default=[3, 4, 5, 6, 7, 8, 10])
    args = parser.parse_args()

    card = json.loads(args.card.read_text())
    training = card.get("training") or {}
    curve, sittings = training.get("curve") or [], training.get("sittings") or []
    if not curve:
        raise SystemExit(f"{args.card} has no training curve")
    key = next((k for k in BY_LENGTH if k in curve[-1]), None)
    samples = [p["samples"] / 1e6 for p in curve]
    fig, (acc, loss) = plt.subplots(1, 2, figsize=(11, 4.2))
    if key == "mean_by_depth":  # a distance: plotted as is, beside the step it should rise with
        for length in args.lengths:
            values = [p[key].get(str(length)) for p in curve]
            acc.plot(samples, values, marker="o", ms=2, label=f"{length}")
        acc.legend(title="walk length", fontsize=8)
        acc.set(ylabel="mean predicted distance")
    elif key is not None:
        for length in args.lengths:
            values = [p[key].get(str(length)) for p in curve]
            acc.plot(samples, [100 * (v or 0) for v in values], marker="o", ms=2, label=f"{length}")
        acc.legend(title="scramble length", fontsize=8)
        acc.set(ylabel=f"{key.replace('_', ' ')} (%)", ylim=(-2, 102))
    loss.plot(samples, [p["val_loss"] for p in curve], color="k", marker="o", ms=2)
    loss.set(ylabel="validation loss")
    steps_per_sample = curve[-1]["step"] / max(curve[-1]["samples"], 1)
    for ax in (acc, loss):
        for sitting in sittings[1:]:
            start = sitting["from_step"] / steps_per_sample / 1e6
            ax.axvline(start, color="grey", ls=":", lw=1)
        ax.set(xlabel="samples seen (millions)")
    total = training.get("totals", {})
    fig.suptitle(
        f"{card.get('model', args.card.stem)}: {len(sittings)} sitting(s), "
        f"{curve[-1]['samples'] / 1e6:.2f}M samples, {total.get('wall_minutes', '?')} min"
    )
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
