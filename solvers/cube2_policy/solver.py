"""``cube2-policy``: the EfficientCube recipe on the 2×2×2 — a policy network, beam search."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from ..common.puzzle_solvers import PuzzleNetSolver, PuzzleSearchSettings
from ..search.kinds import BEAM_WIDTH, DEPTH
from .checkpoint import SHIPPED


@dataclass(frozen=True)
class Cube2PolicySettings(PuzzleSearchSettings):
    MODEL: ClassVar[str] = "policy"
    PUZZLE: ClassVar[str] = "cube2"
    search: str = "beam"
    beam_width: Annotated[int, BEAM_WIDTH] = 256
    max_depth: Annotated[int, DEPTH] = 20


class Cube2PolicySolver(PuzzleNetSolver):
    Settings = Cube2PolicySettings
    SHIPPED = SHIPPED
    name = "cube2-policy"
    puzzles: ClassVar = ("cube2",)
