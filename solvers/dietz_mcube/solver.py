"""``dietz-mcube``: Eric Dietz's 4×4×4 solver, as a program solver."""

from __future__ import annotations

from typing import ClassVar

from ..common.classic import ClassicSolver


class DietzMcubeSolver(ClassicSolver):
    """Dietz's ``mcube`` (passagemath-rubiks) through its driver: layer by layer, long."""

    ENTRY = "dietz-mcube"
    PROGRAM = "mcube"
    DRIVER = "cubebench.solvers.dietz_mcube.driver"
    METRIC = "qtm"
    puzzles: ClassVar[tuple[str, ...]] = ("cube4",)
