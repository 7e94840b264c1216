"""How strong the optimal solver's lower bound is: its distribution over random states, from
the position's own lookups and with its inverse's added.

    python benchmarks/perf/optimal_bounds.py --metric htm --count 20000 [--tables xlarge|dense]

Iterative deepening spends nearly all its nodes where depth + bound just fails to exceed the
cost bound, so the share of states whose bound is at most x, for x a little below a random
state's distance, is what the node count scales with (Korf's estimate of IDA*'s work). The
states are drawn uniformly from the cube group with this script's own seed.
"""

from __future__ import annotations

import argparse

import numpy as np

from cubebench.harness.cube.cubie import random_states
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver

SEED = 12345


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metric", choices=("htm", "qtm"), default="htm")
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--tables", choices=("large", "xlarge", "dense"), default="large")
    args = parser.parse_args()
    solver = OptimalSolver(OptimalSettings(metric=args.metric, tables=args.tables))
    states = random_states(args.count, np.random.default_rng(SEED))  # (54, N)
    cubes = [np.ascontiguousarray(states[:, j]) for j in range(args.count)]
    alone = np.array([solver.lower_bound(c, inverse=False) for c in cubes])
    with_inverse = np.array([solver.lower_bound(c) for c in cubes])
    print(f"{args.count} random states, {args.metric}, {args.tables} tables: mean bound "
          f"{alone.mean():.3f} alone, {with_inverse.mean():.3f} with the inverse")  # fmt: skip
    print("x   P(bound <= x) alone   with the inverse   ratio")
    for x in range(int(alone.min()), int(with_inverse.max()) + 1):
        a, b = (alone <= x).mean(), (with_inverse <= x).mean()
        print(f"{x:<3d} {a:>19.5f} {b:>18.5f} {b / a if a else float('nan'):>7.3f}")


if __name__ == "__main__":
    main()
