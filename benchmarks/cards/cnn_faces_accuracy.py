"""Seed 004's test accuracy, on its own kind of scramble, for one or more cnn-faces checkpoints.

The seed's figure (54.5%) is next-move accuracy on scrambles of 1..10 moves drawn
independently from all 18 (so ``R R`` and ``R R'`` occur), the label being the move that
undoes the last scramble move. The trainer's validation uses walks that never turn a face
twice in a row, a different distribution; this script measures both on fresh seeded
scrambles (never the suites), so the comparison with the seed is like for like.

    python benchmarks/cards/cnn_faces_accuracy.py solvers/cnn_faces/checkpoints /tmp/other
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from cubebench.harness.cube import MOVE_INVERSE, scrambled_batch
from cubebench.solvers.common.walks import random_walks

MAX_LENGTH = 10


def scrambles(kind: str, per_length: int, rng: np.random.Generator):
    """States (54, N), labels (N,) and lengths (N,) for lengths 1..10, ``per_length`` each."""
    states, labels, lengths = [], [], []
    for length in range(1, MAX_LENGTH + 1):
        if kind == "uniform":
            moves = rng.integers(0, 18, size=(per_length, length))  # the seed's scrambles
        else:
            moves = random_walks(per_length, length, rng)  # the trainer's validation walks
        states.append(scrambled_batch(moves))  # (54, per_length)
        labels.append(MOVE_INVERSE[moves[:, -1]])
        lengths.append(np.full(per_length, length))
    return np.concatenate(states, axis=1), np.concatenate(labels), np.concatenate(lengths)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoints", nargs="+", type=Path)
    parser.add_argument("--per-length", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=4004)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    from cubebench.solvers.cnn_faces.checkpoint import load_checkpoint
    from cubebench.solvers.cnn_faces.model import configure_threads, encode

    configure_threads(args.threads)
    data = {
        kind: scrambles(kind, args.per_length, np.random.default_rng([args.seed, i]))
        for i, kind in enumerate(("uniform", "canonical"))
    }
    for folder in args.checkpoints:
        model, card = load_checkpoint(folder)
        variant = card.get("architecture", {}).get("variant", "faces")
        print(f"{folder} (sha256 {card['sha256'][:12]}…, {card.get('data')})")
        for kind, (states, labels, lengths) in data.items():
            logits = np.asarray(model.predict(encode(states, variant), batch_size=2048, verbose=0))
            correct = logits.argmax(axis=1) == labels
            by_length = " ".join(
                f"{n}:{correct[lengths == n].mean():.3f}" for n in range(1, MAX_LENGTH + 1)
            )
            print(f"  {kind:9s} scrambles 1..10: accuracy {correct.mean():.4f}   {by_length}")


if __name__ == "__main__":
    main()
