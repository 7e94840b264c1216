"""Where mlp-kociemba's greedy rollout goes wrong on the cubes it does not solve.

``python benchmarks/mlp_kociemba_failures.py --suite depth-07-v1 --limit 300`` rolls the
shipped model out greedily (the solver's own rule: the best move whose result is unseen) on
the first ``limit`` cubes and, for each failure, measures the distance from solved of the
first states on its path with bounded kociemba (the shortest ``max_depth`` that finds a
route, up to ``--cap``). It prints how many failures took their first wrong turn at each
step and whether that turn went away from solved or sideways: what a better model or more
labels has to fix.
"""

from __future__ import annotations

import argparse
from collections import Counter

import kociemba
import numpy as np

from cubebench.harness.cube import apply_moves, facelets_to_state, is_solved, state_to_facelets
from cubebench.harness.records.provenance import machine_info
from cubebench.harness.registry import make_solver
from cubebench.harness.suites.catalog import load_suite


def distance(state: np.ndarray, cap: int) -> int:
    """Moves from solved by bounded kociemba; ``cap + 1`` stands for "more than cap"."""
    if is_solved(state):
        return 0
    facelets = state_to_facelets(state)
    for depth in range(1, cap + 1):
        try:
            kociemba.solve(facelets, max_depth=depth)
            return depth
        except ValueError:  # no route of this many moves
            continue
    return cap + 1


def rollout(solver, state: np.ndarray, max_depth: int) -> list[np.ndarray]:
    """The greedy path from ``state``: the best-scored move whose result is not yet seen."""
    path, seen = [state], {state.tobytes()}
    for _ in range(max_depth):
        scores = solver.policy(state[:, None])[0]
        for move in np.argsort(-scores, kind="stable"):
            child = apply_moves(state[:, None], np.array([move]))[:, 0]
            if child.tobytes() not in seen:
                break
        state = child
        path.append(state)
        seen.add(state.tobytes())
        if is_solved(state):
            break
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="depth-07-v1")
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--symmetries", default="full", help="the solver setting")
    parser.add_argument("--checkpoint", default="", help="folder; empty: the shipped one")
    parser.add_argument("--cap", type=int, default=10, help="longest distance measured")
    args = parser.parse_args()
    settings = {"symmetries": args.symmetries, "checkpoint": args.checkpoint, "threads": 2}
    solver = make_solver("mlp-kociemba", settings)
    cubes = load_suite(args.suite).instances[: args.limit]
    failures: Counter[tuple[int, str]] = Counter()
    for cube in cubes:
        path = rollout(solver, facelets_to_state(cube.facelets), solver.settings.max_depth)
        if is_solved(path[-1]):
            continue
        distances = [distance(state, args.cap) for state in path[: args.cap]]
        wrong = (i for i in range(len(distances) - 1) if distances[i + 1] >= distances[i])
        step = next(wrong, None)
        if step is None:
            failures[(args.cap, "later")] += 1
            continue
        turn = "away" if distances[step + 1] > distances[step] else "sideways"
        failures[(step, turn)] += 1
    solved = len(cubes) - sum(failures.values())
    print(
        f"{args.suite}, first {len(cubes)}, symmetries={args.symmetries}, checkpoint "
        f"{solver.checkpoint_sha256[:8]}, {machine_info()['cpu']}: {solved} solved"
    )
    for (step, turn), count in sorted(failures.items()):
        print(f"  first wrong turn at step {step + 1}, {turn} from solved: {count}")


if __name__ == "__main__":
    main()
