"""Adapter for the ``kociemba`` package (C implementation of the two-phase algorithm)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import version
from typing import Annotated, ClassVar

import kociemba
import numpy as np

from ...harness import (
    Attempt,
    Budget,
    Range,
    SolverSettings,
    is_solved,
    parse_moves,
    state_to_facelets,
)


@dataclass(frozen=True)
class KociembaSettings(SolverSettings):
    # the package's C search keeps a path in arrays of 31 moves and its depth in a C int
    max_length: Annotated[int, Range(min=1, max=30)] = 24
    OPTION_HELP: ClassVar = {"max_length": "longest solution (HTM) the two-phase search accepts"}


class KociembaSolver:
    """Two-phase search; the package returns the first solution within ``max_length``."""

    Settings = KociembaSettings

    def __init__(self, settings: KociembaSettings | None = None) -> None:
        self.settings = settings or KociembaSettings()
        self.name = "kociemba"
        self.version = version("kociemba")

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        # kociemba.solve on a solved cube returns a 13-move identity sequence; answer nothing
        if is_solved(cube):
            return Attempt(moves=())
        limit = self.settings.max_length
        if budget.max_length is not None:
            limit = min(limit, budget.max_length)
        try:
            text = kociemba.solve(state_to_facelets(cube), max_depth=limit)
        except ValueError:
            return Attempt(moves=(), info={"gave_up": f"no solution within {limit} moves"})
        return Attempt(
            moves=tuple(parse_moves(text)), info={"kociemba": self.version, "metric": "htm"}
        )
