"""Where beam-search time goes with the shipped policy-mlp checkpoint on this CPU.

For widths 256, 1024 and 4096, solves random-state cubes and splits the wall time into the
model call (encode + network + log-softmax) and everything else (engine expansion, masks,
solved check, duplicate removal, top-k, bookkeeping). Run: ``python benchmarks/search.py``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from harness.cube import apply_sequence, is_solved
from harness.registry import make_solver
from harness.solver import Budget
from harness.suites.registry import load_suite
from solvers.search.settings import run_search


class _TimedPolicy:
    def __init__(self, policy) -> None:
        self.policy, self.seconds, self.states = policy, 0.0, 0

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        start = time.perf_counter()
        out = self.policy(batch)
        self.seconds += time.perf_counter() - start
        self.states += batch.shape[1]
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--widths", type=int, nargs="*", default=[256, 1024, 4096])
    parser.add_argument("--cubes", type=int, default=10)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", 1)))
    args = parser.parse_args()
    suite = load_suite("random-state-v1")
    states = suite.states()[:, : args.cubes]
    print(
        f"{'width':>6} {'solved':>7} {'s/cube':>7} {'model %':>8} {'outside %':>9} "
        f"{'states/s':>10} {'model states/s':>15}"
    )
    for width in args.widths:
        solver = make_solver("policy-mlp", {"beam_width": width, "threads": args.threads})
        timed = _TimedPolicy(solver.policy)

        solved, nodes, total = 0, 0, 0.0
        for j in range(states.shape[1]):
            start = time.perf_counter()
            attempt = run_search(
                states[:, j], Budget(wall_seconds=120), solver.settings, policy=timed
            )
            total += time.perf_counter() - start
            nodes += attempt.nodes_expanded
            solved += bool(attempt.moves) and bool(
                is_solved(apply_sequence(states[:, j], attempt.moves))
            )
        share = timed.seconds / total
        print(
            f"{width:>6} {solved:>4}/{states.shape[1]:<2} {total / states.shape[1]:>7.2f} "
            f"{100 * share:>7.1f}% {100 * (1 - share):>8.1f}% {18 * nodes / total:>10,.0f} "
            f"{timed.states / timed.seconds:>15,.0f}"
        )


if __name__ == "__main__":
    main()
