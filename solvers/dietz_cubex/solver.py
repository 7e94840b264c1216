"""``dietz-cubex``: Eric Dietz's layer-by-layer solver, as a program solver."""

from __future__ import annotations

from ..common.classic import ClassicSolver


class DietzCubexSolver(ClassicSolver):
    """Dietz's ``cubex`` (passagemath-rubiks) through its driver: fast, far from shortest."""

    ENTRY = "dietz-cubex"
    PROGRAM = "cubex"
    DRIVER = "cubebench.solvers.dietz_cubex.driver"
