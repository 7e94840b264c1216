"""What the length bound of ``solvers/mlp_kociemba/labels.py`` buys and costs, per scramble length.

``python benchmarks/mlp_kociemba_bound.py --count 20 --lengths 7 9 11 12 13`` scrambles
``count`` cubes of each length (walks that never turn one face twice in a row, as the
labels use), solves each with ``kociemba.solve`` unbounded (the seed's call) and with
``max_depth=length`` (the bound), and prints the mean route length and time a call of both.
"""

from __future__ import annotations

import argparse
import time

import kociemba
import numpy as np

from cubebench.harness.cube import apply_moves, parse_moves, solved_batch, state_to_facelets
from cubebench.harness.hardware import instruction_set
from cubebench.harness.records.provenance import machine_info
from cubebench.solvers.common.walks import random_walks


def measure(facelets: list[str], max_depth: int) -> tuple[float, float]:
    """(mean route length, milliseconds a call)."""
    start = time.perf_counter()
    lengths = [len(parse_moves(kociemba.solve(f, max_depth=max_depth))) for f in facelets]
    return float(np.mean(lengths)), (time.perf_counter() - start) / len(facelets) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--lengths", type=int, nargs="+", default=[7, 9, 11, 12, 13])
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"{machine_info()['cpu']} ({instruction_set()}), {args.count} scrambles a length")
    print("length  unbounded: moves  ms/call   bounded: moves  ms/call")
    for length in args.lengths:
        walks = random_walks(args.count, length, rng)
        states = solved_batch(args.count)  # (54, count)
        for step in range(length):
            states = apply_moves(states, walks[:, step])
        facelets = [state_to_facelets(s) for s in states.T]
        free, bound = measure(facelets, 24), measure(facelets, length)
        print(f"{length:6d}  {free[0]:16.2f}  {free[1]:7.1f}  {bound[0]:14.2f}  {bound[1]:7.1f}")


if __name__ == "__main__":
    main()
