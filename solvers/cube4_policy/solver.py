"""``cube4-policy``: the EfficientCube recipe on the 4×4×4 — a policy network, beam search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from ..common.puzzle_solvers import PuzzleNetSolver, PuzzleSearchSettings
from ..search.kinds import BEAM_WIDTH, DEPTH
from .checkpoint import SHIPPED


@dataclass(frozen=True)
class Cube4PolicySettings(PuzzleSearchSettings):
    MODEL: ClassVar[str] = "policy"
    PUZZLE: ClassVar[str] = "cube4"
    search: str = "beam"
    beam_width: Annotated[int, BEAM_WIDTH] = 1024
    max_depth: Annotated[int, DEPTH] = 80


class Cube4PolicySolver(PuzzleNetSolver):
    Settings = Cube4PolicySettings
    SHIPPED = SHIPPED
    name = "cube4-policy"
    puzzles: ClassVar = ("cube4",)
