"""How soon an order of the tasks reaches the last bound's first solution.

    python benchmarks/perf/optimal_orders.py --metric htm --count 6
    python benchmarks/perf/optimal_orders.py --metric qtm --count 3
    python benchmarks/perf/optimal_orders.py --metric htm --count 6 --depth 5

The optimal solver walks a deep bound as tasks (``solvers/optimal/tasks.py``), and its last
bound stops at its first solution, so the order of the tasks decides how much of that bound
is walked. This script walks every bound of each development random state (the harness's
dev seed, never a suite) as tasks, counting each task's nodes, and walks the last bound to
its end, noting where in each task a solution first comes. Any order's cost is then read off
without walking again: the whole nodes of the tasks before the first task with a solution,
plus that task's nodes up to its solution. The orders scored, each from the bounds before:

- ``walk``: the walk's own order (the canonical sequences in move order);
- ``densest``: the solver's order, the bound before's nodes over the canonical three-move
  continuations of the prefix (:meth:`.Tasks.order`);
- ``unweighted``: the bound before's nodes alone;
- ``growth``: the bound before's nodes over the nodes of the bound before that.

With ``--depth 5`` the tasks fix five moves instead of four; the orders are then scored on
both cuts, the four-move tasks' counts summed from their five-move tasks (which the walk
visits in the same order, so nothing is walked twice; a task walks its prefix again, so the
summed counts hold about one node more a five-move task).

Node counts are the same on any machine; the walk to the end takes minutes a state.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from cubebench.harness.cube import apply_sequence, facelets_to_state, is_solved
from cubebench.harness.records.provenance import machine_info
from cubebench.harness.suites.generate import DEV_SEED, random_state_instances
from cubebench.solvers.optimal import ida
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver
from cubebench.solvers.optimal.tasks import DEPTH, Tasks
from cubebench.solvers.patterns.coords import corner_parity

ORDERS = ("walk", "densest", "unweighted", "growth")


def _walk_bound(
    solver: OptimalSolver, cube: np.ndarray, bound: int, root: tuple, walk: tuple
) -> tuple[np.ndarray, dict[int, int]]:
    """Walk ``bound`` to its end as tasks in the walk's own order: (n,) each task's nodes,
    and each task with a solution -> its nodes up to its first one."""
    n = len(solver._tasks.prefixes)
    order, counts = np.arange(n, dtype=np.int64), np.zeros(n, np.int64)
    cursor = np.zeros(1, np.int64)
    walk[3][0] = -1
    first: dict[int, int] = {}
    while True:
        status, _ = solver._walk(bound, 1 << 40, root, walk, (order, counts, cursor))
        if status == ida.EXHAUSTED:
            return counts, first
        if status == ida.CANDIDATE and is_solved(apply_sequence(cube, list(walk[2][:bound]))):
            task = int(order[cursor[0]])
            first.setdefault(task, int(counts[task]))  # counts hold the nodes up to here


def _cost(order: np.ndarray, counts: np.ndarray, first: dict[int, int]) -> int:
    """The nodes ``order`` walks to the last bound's first solution."""
    spent = 0
    for task in order:
        if int(task) in first:
            return spent + first[int(task)]
        spent += int(counts[task])
    raise AssertionError("the last bound has a solution")


def _orders(tasks: Tasks, before: np.ndarray, earlier: np.ndarray) -> dict:
    n = len(before)
    return {
        "walk": np.arange(n),
        "densest": tasks.order(before),
        "unweighted": np.argsort(-before, kind="stable"),
        "growth": np.argsort(-(before / (earlier + 1.0)), kind="stable"),
    }


def _coarser(group: np.ndarray, n: int, counts: np.ndarray, first: dict[int, int]) -> tuple:
    """The counts and first solutions of the cut ``group`` maps each task to (n tasks; a
    coarse task's fine tasks are contiguous and in the walk's order)."""
    coarse = np.bincount(group, weights=counts, minlength=n).astype(np.int64)
    spent: dict[int, int] = {}  # a coarse task's nodes so far, in the walk's order
    found: dict[int, int] = {}
    for task in range(len(group)):
        g = int(group[task])
        if g in found:
            continue
        if task in first:
            found[g] = spent.get(g, 0) + first[task]
        spent[g] = spent.get(g, 0) + int(counts[task])
    return coarse, found


def _fine_tasks(solver: OptimalSolver, depth: int) -> tuple[Tasks, np.ndarray]:
    """Tasks of ``depth`` moves put in the solver's place, and the solver's own task each
    one's prefix falls in (the cut to score its orders on as well)."""
    own = solver._tasks
    fine = Tasks(solver._moves, solver._qtm, solver._follow, depth)
    index = {tuple(row): i for i, row in enumerate(own.prefixes.tolist())}
    group = np.array([index[tuple(row[:DEPTH])] for row in fine.prefixes.tolist()], np.int64)
    solver._tasks = fine
    return own, group


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metric", choices=("htm", "qtm"), default="htm")
    parser.add_argument("--count", type=int, default=6, help="development random states")
    parser.add_argument("--tables", choices=("large", "xlarge", "dense"), default="dense")
    parser.add_argument("--depth", type=int, choices=(DEPTH, DEPTH + 1), default=DEPTH)
    args = parser.parse_args()
    print(f"CPU: {machine_info()['cpu']} ({platform.machine()}), one core")
    solver = OptimalSolver(OptimalSettings(metric=args.metric, tables=args.tables))
    cuts = {DEPTH: (solver._tasks, None)}
    if args.depth != DEPTH:
        own, group = _fine_tasks(solver, args.depth)
        cuts = {args.depth: (solver._tasks, None), DEPTH: (own, group)}
    qtm, step = args.metric == "qtm", 2 if args.metric == "qtm" else 1
    totals = {(d, k): 0 for d in cuts for k in ORDERS}
    for instance in random_state_instances(args.count, seed=DEV_SEED):
        cube = facelets_to_state(instance.facelets)
        start = time.perf_counter()
        bound = max(solver.lower_bound(cube), args.depth + 1)
        if qtm and bound % 2 != corner_parity(cube):
            bound += 1
        root, walk = solver._root(cube), ida.new_walk(solver.settings.max_length + 1)
        n = len(solver._tasks.prefixes)
        earlier = before = np.zeros(n, np.int64)
        while True:
            counts, first = _walk_bound(solver, cube, bound, root, walk)
            if first:
                break
            earlier, before = before, counts
            bound += step
        line = (
            f"#{instance.id}: optimum {bound} {args.metric}, last bound {counts.sum() / 1e6:.1f}M"
        )
        for d, (tasks, group) in cuts.items():
            c, f, b, e = counts, first, before, earlier
            if group is not None:
                m = len(tasks.prefixes)
                c, f = _coarser(group, m, counts, first)
                b, e = (np.bincount(group, weights=x, minlength=m) for x in (before, earlier))
            costs = {k: _cost(o, c, f) for k, o in _orders(tasks, b, e).items()}
            for k in ORDERS:
                totals[d, k] += costs[k]
            shown = ", ".join(f"{k} {costs[k] / 1e6:.1f}M" for k in ORDERS)
            line += f"; {d} moves: {len(f)} of {len(c)} tasks solve, to the first {shown}"
        print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True)
    for d in cuts:
        shown = ", ".join(f"{k} {totals[d, k] / 1e6:.1f}M" for k in ORDERS)
        print(f"tasks of {d} moves, to the first solution over all states: {shown}")


if __name__ == "__main__":
    main()
