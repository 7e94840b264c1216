"""``cube2-value``: DeepCubeA's recipe on the 2×2×2 — a value network, batch-weighted A*."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from ..common.puzzle_solvers import PuzzleNetSolver, PuzzleSearchSettings
from ..search.kinds import BATCH, DEPTH
from .checkpoint import SHIPPED


@dataclass(frozen=True)
class Cube2ValueSettings(PuzzleSearchSettings):
    MODEL: ClassVar[str] = "value"
    PUZZLE: ClassVar[str] = "cube2"
    search: str = "astar"
    astar_batch: Annotated[int, BATCH] = 100
    max_depth: Annotated[int, DEPTH] = 20


class Cube2ValueSolver(PuzzleNetSolver):
    Settings = Cube2ValueSettings
    SHIPPED = SHIPPED
    name = "cube2-value"
    puzzles: ClassVar = ("cube2",)
