"""Engine throughput against the bound of a plain copy of the same array.

Measures state-moves per second for (a) one move applied to a whole batch, (b) a different
random move for each state, and (c) a plain copy of the batch, plus the children of a beam
step (all 18 moves at once) and state hashing. Run: ``python benchmarks/perf/engine.py``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from cubebench.harness.cube import apply_move, apply_moves, expand, random_states, state_hash


def _best_rate(fn: Callable[[], object], states: int, repeats: int) -> float:
    fn()  # warm up (compilation, page faults)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return states / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    n = args.batch
    rng = np.random.default_rng(0)
    states = random_states(n, rng)  # (54, N)
    out = np.empty_like(states)
    moves = rng.integers(0, 18, size=n)
    small = states[:, : n // 18]

    rates = {
        "copy (bound)": _best_rate(lambda: np.copyto(out, states), n, args.repeats),
        "one move, whole batch": _best_rate(
            lambda: apply_move(states, 7, out=out), n, args.repeats
        ),
        "random move per state": _best_rate(
            lambda: apply_moves(states, moves, out=out), n, args.repeats
        ),
        "expand (18 children)": _best_rate(
            lambda: expand(small), 18 * small.shape[1], args.repeats
        ),
        "state_hash": _best_rate(lambda: state_hash(states), n, args.repeats),
    }
    copy = rates["copy (bound)"]
    print(f"batch of {n:,} states, best of {args.repeats}")
    print(f"{'operation':<24} {'states/s':>14} {'vs copy':>8}")
    for name, rate in rates.items():
        print(f"{name:<24} {rate / 1e6:>12.1f} M {rate / copy:>8.2f}")


if __name__ == "__main__":
    main()
