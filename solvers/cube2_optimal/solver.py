"""The 2×2×2's optimal solver: every move steps to a neighbour one nearer in the exact table.

The 2×2×2 has 3,674,160 positions, so its exact distances in both metrics fit in one table
(:func:`~cubebench.harness.cube2_distances`, built by breadth-first search and checked
against the published counts). From a cube at distance d some move leads to distance d - 1;
taking one such move d times is an optimal solution, found with d × 18 look-ups. It is the
2×2×2's ruler, as ``optimal`` is the 3×3×3's, and the row every 2×2×2 entry is measured
against.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np

from ...harness import Attempt, Budget, SolverSettings, cube2_distances, puzzle


@dataclass(frozen=True)
class Cube2OptimalSettings(SolverSettings):
    metric: Literal["htm", "qtm"] = "htm"
    OPTION_HELP: ClassVar = {
        "metric": "the metric the answer is shortest in: face turns (htm) or quarter turns (qtm)"
    }


class Cube2OptimalSolver:
    """Descends the exact distance table; every answer is optimal in its metric."""

    Settings = Cube2OptimalSettings
    puzzles: ClassVar = ("cube2",)

    def __init__(self, settings: Cube2OptimalSettings | None = None) -> None:
        self.settings = settings or Cube2OptimalSettings()
        self.name = "cube2-optimal"
        self.version = "1"
        self._cube = puzzle("cube2")
        self._table = cube2_distances()
        self._moves = np.array(self._cube.metrics[self.settings.metric])
        self._children = np.ascontiguousarray(self._cube.tables[self._moves].T)  # (24, k)

    @property
    def metric(self) -> str:
        return self.settings.metric

    @classmethod
    def prepare(cls, settings: Cube2OptimalSettings) -> None:
        """Build the table into the cache before any worker loads (half a minute, once)."""
        cube2_distances()

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        metric = self.settings.metric
        state = np.asarray(cube)
        distance = int(self._table.distances(state[:, None], metric)[0])
        if budget.max_length is not None and distance > budget.max_length:
            why = f"the optimum is {distance} {metric}, over the length budget"
            return Attempt((), info={"metric": metric, "gave_up": why})
        path: list[int] = []
        for nearer in range(distance - 1, -1, -1):
            children = state[self._children]  # (24, k)
            step = int(np.argmax(self._table.distances(children, metric) == nearer))
            path.append(int(self._moves[step]))
            state = children[:, step]
        info = {"metric": metric, "optimal": True, f"optimal_{metric}": distance}
        return Attempt(tuple(path), nodes_expanded=len(path) * len(self._moves), info=info)
