"""``dietz-cu2``: Eric Dietz's 2×2×2 solver, as a program solver."""

from __future__ import annotations

from typing import ClassVar

from ..common.classic import ClassicSolver


class DietzCu2Solver(ClassicSolver):
    """Dietz's ``cu2`` (passagemath-rubiks) through its driver: quarter turns, fast."""

    ENTRY = "dietz-cu2"
    PROGRAM = "cu2"
    DRIVER = "cubebench.solvers.dietz_cu2.driver"
    METRIC = "qtm"
    puzzles: ClassVar[tuple[str, ...]] = ("cube2",)
