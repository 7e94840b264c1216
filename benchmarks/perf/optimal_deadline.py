"""How close to its deadline a timed ``optimal`` search stops: the walk's chunks sized from
its speed and the time left (what the solver does) beside a fixed chunk of 2^21 nodes
between two looks at the clock, the two taking turns on the same random states.

    python benchmarks/perf/optimal_deadline.py --tables small --budget 0.2 --cubes 12

The states are drawn from ``--seed``; a search this short proves none of them, so each
answer is a timeout and its wall time is how long the solver kept the core.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import cubebench.solvers.optimal.solver as optimal
from cubebench.harness.cube import random_states
from cubebench.harness.registry import make_solver
from cubebench.harness.solver import Budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="small", help="the optimal solver's tables")
    parser.add_argument("--budget", type=float, default=0.2, help="wall seconds a cube")
    parser.add_argument("--cubes", type=int, default=12, help="random states")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.budget <= 0 or args.cubes < 1:
        parser.error(f"--budget {args.budget} and --cubes {args.cubes} must be positive")
    solver = make_solver("optimal", {"tables": args.tables})
    states = random_states(args.cubes, np.random.default_rng(args.seed))  # (54, cubes)
    adaptive = optimal.next_chunk
    ways = {"sized": adaptive, "fixed": lambda rate, left: optimal.CHUNK_NODES}
    solver.solve(states[:, 0].copy(), Budget(wall_seconds=args.budget))  # compiles the walk
    walls: dict[str, list[float]] = {name: [] for name in ways}
    try:
        for i in range(args.cubes):
            cube = states[:, i].copy()
            for name, chunk in ways.items():
                optimal.next_chunk = chunk
                start = time.perf_counter()
                solver.solve(cube, Budget(wall_seconds=args.budget))
                walls[name].append(time.perf_counter() - start)
    finally:
        optimal.next_chunk = adaptive
    for name, wall in walls.items():
        print(
            f"{name} chunks: {min(wall):.3f} to {max(wall):.3f} s, median "
            f"{float(np.median(wall)):.3f} s, for a budget of {args.budget} s"
        )


if __name__ == "__main__":
    main()
