"""``cube4-value``: DeepCubeA's recipe on the 4×4×4 — a value network, beam search or A*."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from ..common.puzzle_solvers import PuzzleNetSolver, PuzzleSearchSettings
from ..search.kinds import BATCH, BEAM_WIDTH, DEPTH
from .checkpoint import SHIPPED


@dataclass(frozen=True)
class Cube4ValueSettings(PuzzleSearchSettings):
    MODEL: ClassVar[str] = "value"
    PUZZLE: ClassVar[str] = "cube4"
    search: str = "beam"
    beam_width: Annotated[int, BEAM_WIDTH] = 1024
    astar_batch: Annotated[int, BATCH] = 100
    max_depth: Annotated[int, DEPTH] = 80


class Cube4ValueSolver(PuzzleNetSolver):
    Settings = Cube4ValueSettings
    SHIPPED = SHIPPED
    name = "cube4-value"
    puzzles: ClassVar = ("cube4",)
