"""What the corner bound costs a state, beside what ``cayley-mlp``'s network costs.

Run: ``python benchmarks/perf/bound_cost.py [--states 100000]`` on one core (``taskset -c 0``).
Both read the same random 20-move quarter-turn states; the network in 16,384-state calls,
as a beam makes them. Prints microseconds a state, three times.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cubebench.harness import SOLVED, move_set
from cubebench.harness.registry import make_solver
from cubebench.solvers.patterns.bounds import corner_bound

CALL = 16384


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=100_000)
    args = parser.parse_args()
    rng, qtm = np.random.default_rng(0), move_set("qtm")
    states = SOLVED[:, None].copy()
    for _ in range(20):
        children = qtm.expand(states)
        states = np.ascontiguousarray(children[:, rng.integers(0, children.shape[1], args.states)])
    solver = make_solver("cayley-mlp", {"threads": 1})
    corner_bound(states[:, :10], "qtm")  # load the table and compile the lookup
    calls = range(0, args.states - CALL + 1, CALL)
    with solver.inference():
        solver.value(states[:, :CALL])  # warm up
        for _ in range(3):
            began = time.perf_counter()
            for i in calls:
                solver.value(states[:, i : i + CALL])
            network = (time.perf_counter() - began) / (len(calls) * CALL)
            began = time.perf_counter()
            corner_bound(states, "qtm")
            bound = (time.perf_counter() - began) / args.states
            print(f"network {network * 1e6:.2f} us a state, corner bound {bound * 1e6:.2f} us")


if __name__ == "__main__":
    main()
