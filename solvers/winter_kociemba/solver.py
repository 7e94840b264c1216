"""``winter-kociemba``: Dik Winter's two-phase solver, as a program solver."""

from __future__ import annotations

from ..common.classic import ClassicSolver


class WinterKociembaSolver(ClassicSolver):
    """Winter's ``dikcube`` (passagemath-rubiks) through its driver: the first solution of
    Kociemba's two-phase algorithm."""

    ENTRY = "winter-kociemba"
    PROGRAM = "dikcube"
    DRIVER = "cubebench.solvers.winter_kociemba.driver"
