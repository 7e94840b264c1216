"""Held-out accuracy of an mlp-kociemba checkpoint: the network alone and the solver's policy.

``python benchmarks/cards/mlp_kociemba_accuracy.py [--checkpoint FOLDER] [--symmetries none ud full]
[--stream S]`` scores the checkpoint on held-out labels under each ``symmetries`` setting of
the solver. By default (``--stream 1``) they are the ones its card names (``validation_calls``
kociemba calls from stream 1 of the training seed; the same cached set training validated
on), and ``none``, the network alone, should repeat the card's ``all_prefix_accuracy`` (a
check that the set is the one trained against). Training chose its checkpoint by loss on that
set, so ``--stream 3`` (or any stream no training run draws: 0 trains, 1 validates, 2 is the
near-solved supplement) scores a fresh set of the same size and kind that nothing has seen.
``ud`` averages the probabilities over the 16 symmetries that keep the U-D axis (those
kociemba's two-phase algorithm itself is symmetric under); ``full`` over all 48, the policy
``search=greedy`` rolls out by default. The card's figure is the network's; this says how
often the move a policy actually takes is the label's.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from cubebench.harness.records.provenance import machine_info
from cubebench.harness.registry import make_solver
from cubebench.solvers.mlp_kociemba.checkpoint import CHECKPOINT_DIR, STEM
from cubebench.solvers.mlp_kociemba.labels import NEAR_STREAM, load_or_generate


def accuracy(solver, states: np.ndarray, labels: np.ndarray, batch: int) -> np.ndarray:
    """(N, 54) states, (N,) labels -> (N,) bool: the policy's best move is the label."""
    hits = []
    for i in range(0, len(labels), batch):
        scores = solver.policy(states[i : i + batch].T)  # (B, 18)
        hits.append(scores.argmax(axis=1) == labels[i : i + batch])
    return np.concatenate(hits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkpoint", default="", help="checkpoint folder; default: shipped")
    parser.add_argument("--symmetries", nargs="+", default=["none", "ud", "full"])
    parser.add_argument(
        "--stream", type=int, default=1, help="label stream of the training seed (1: the card's)"
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=2048)
    args = parser.parse_args()
    folder = Path(args.checkpoint) if args.checkpoint else CHECKPOINT_DIR
    card = json.loads((folder / f"{STEM}.json").read_text())
    data, seed = card["data"], card["loop"]["seed"]
    if args.stream < 1 or args.stream == NEAR_STREAM:
        parser.error(f"--stream {args.stream}: trained on; use 1 (validation) or >= 3 (fresh)")
    val = load_or_generate(
        data["validation_calls"], seed, args.stream, None, print, data["bound_until"]
    )
    labels = val.labels.astype(np.int64)
    first = val.step == 0
    print(
        f"{folder} (sha256 {card['sha256'][:8]}…): {len(labels):,} held-out labels from stream "
        f"{args.stream}; card (stream 1): "
        f"every prefix {card['validation']['all_prefix_accuracy']:.4f}"
    )
    for group in args.symmetries:
        solver = make_solver(
            "mlp-kociemba",
            {"checkpoint": args.checkpoint, "symmetries": group, "threads": args.threads},
        )
        start = time.perf_counter()
        hit = accuracy(solver, val.states, labels, args.batch)
        print(
            f"symmetries={group}: every prefix {hit.mean():.4f}, first move "
            f"{hit[first].mean():.4f}, by moves left "
            + " ".join(f"{k}:{hit[val.remaining == k].mean():.3f}" for k in range(1, 21))
            + f" ({time.perf_counter() - start:.0f} s)"
        )
    info = machine_info()
    print(f"on {info.get('cpu')} ({info.get('isa')}), precision {solver.resolved.precision}")


if __name__ == "__main__":
    main()
