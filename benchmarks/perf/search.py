"""Where beam-search time goes with a shipped checkpoint on this CPU.

For each width, solves random-state cubes and splits the wall time into the model call
(encode + network + log-softmax) and everything else (engine expansion, masks, solved check,
duplicate removal, top-k, bookkeeping). Run: ``python benchmarks/perf/search.py`` (policy-mlp),
``python benchmarks/perf/search.py --solver cayley-mlp --metric qtm`` (a value beam).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from cubebench.harness.cube import apply_sequence, is_solved
from cubebench.harness.registry import make_solver
from cubebench.harness.solver import Budget
from cubebench.harness.suites.catalog import load_suite
from cubebench.solvers.search.settings import run_search


class _Timed:
    def __init__(self, model) -> None:
        self.model, self.seconds, self.states = model, 0.0, 0

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        start = time.perf_counter()
        out = self.model(batch)
        self.seconds += time.perf_counter() - start
        self.states += batch.shape[1]
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--widths", type=int, nargs="*", default=[256, 1024, 4096])
    parser.add_argument("--cubes", type=int, default=10)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", 1)))
    parser.add_argument("--solver", default="policy-mlp", help="policy-mlp or cayley-mlp")
    parser.add_argument("--metric", default="htm", choices=["htm", "qtm"])
    args = parser.parse_args()
    suite = load_suite("random-state-v1")
    states = suite.states()[:, : args.cubes]
    print(
        f"{'width':>6} {'solved':>7} {'s/cube':>7} {'model %':>8} {'outside %':>9} "
        f"{'states/s':>10} {'model states/s':>15}"
    )
    for width in args.widths:
        settings = {"beam_width": width, "threads": args.threads, "metric": args.metric}
        solver = make_solver(args.solver, settings)
        is_policy = hasattr(solver, "policy")
        timed = _Timed(solver.policy if is_policy else solver.value)
        kind = {"policy": timed} if is_policy else {"value": timed}

        solved, nodes, total = 0, 0, 0.0
        for j in range(states.shape[1]):
            start = time.perf_counter()
            attempt = run_search(states[:, j], Budget(wall_seconds=120), solver.settings, **kind)
            total += time.perf_counter() - start
            nodes += attempt.nodes_expanded
            solved += bool(attempt.moves) and bool(
                is_solved(apply_sequence(states[:, j], attempt.moves))
            )
        share = timed.seconds / total
        children = 18 if args.metric == "htm" else 12
        print(
            f"{width:>6} {solved:>4}/{states.shape[1]:<2} {total / states.shape[1]:>7.2f} "
            f"{100 * share:>7.1f}% {100 * (1 - share):>8.1f}% {children * nodes / total:>10,.0f} "
            f"{timed.states / timed.seconds:>15,.0f}"
        )


if __name__ == "__main__":
    main()
