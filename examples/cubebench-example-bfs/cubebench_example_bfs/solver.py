"""Breadth-first search over canonical face-turn sequences, level by level, on the batched
engine of ``cubebench.harness``: the first level that holds the solved cube gives an optimal
solution. Exact and simple, and hopeless past about 6 moves (7.6M states at depth 6): a
reference point for shallow suites, and a template for an adapter."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, ClassVar

import numpy as np

from cubebench.harness import SOLVED, Attempt, Budget, Range, SolverSettings, move_set


@dataclass(frozen=True)
class BreadthFirstSettings(SolverSettings):
    # types and ranges are declared once, here; the harness checks every value against them
    max_depth: Annotated[int, Range(min=1, max=6)] = 5

    # help for `bench settings example-bfs` lives on the settings class, not the solver
    OPTION_HELP: ClassVar = {"max_depth": "longest solution searched (HTM); 6 takes seconds"}


class BreadthFirstSolver:
    """``solve`` gets a read-only (54,) state and the run's budget; it returns move ids."""

    Settings = BreadthFirstSettings
    metric = "htm"  # the metric it searches: records and reports judge it against that optimum

    def __init__(self, settings: BreadthFirstSettings | None = None) -> None:
        self.settings = settings or BreadthFirstSettings()
        self.name = "example-bfs"
        self.moves = move_set("htm")

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        if (cube == SOLVED).all():
            return Attempt(())
        start = time.monotonic()
        frontier = cube[:, None]  # (54, N) states at the current depth
        paths = np.zeros((1, 0), dtype=np.int64)  # (N, depth) move ids that reached them
        last = np.full(1, -1)  # (N,) local index of each state's last move
        nodes = 0
        deepest = min(self.settings.max_depth, budget.max_length or self.settings.max_depth)
        for _ in range(deepest):
            if budget.wall_seconds and time.monotonic() - start > 0.8 * budget.wall_seconds:
                break  # stop in time: the harness would count a late answer as a timeout
            n, k = frontier.shape[1], self.moves.size
            keep = self.moves.allowed_after(last).T.reshape(-1)  # child i * N + j allowed?
            local = np.repeat(np.arange(k), n)[keep]
            parent = np.tile(np.arange(n), k)[keep]
            frontier = self.moves.expand(frontier)[:, keep]
            paths = np.concatenate([paths[parent], self.moves.moves[local][:, None]], axis=1)
            last, nodes = local, nodes + n
            hit = np.flatnonzero((frontier == SOLVED[:, None]).all(axis=0))
            if hit.size:
                return Attempt(tuple(int(m) for m in paths[hit[0]]), nodes_expanded=nodes)
        return Attempt((), nodes_expanded=nodes, info={"gave_up": f"not within {deepest}"})
