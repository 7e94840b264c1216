"""``reid-optimal``: Michael Reid's optimal solver in quarter turns, as a program solver."""

from __future__ import annotations

from ..common.classic import ClassicSolver


class ReidOptimalSolver(ClassicSolver):
    """Reid's ``optimal`` (passagemath-rubiks) through its driver; tables built once a
    worker, kept across cubes."""

    ENTRY = "reid-optimal"
    PROGRAM = "optimal"
    DRIVER = "cubebench.solvers.reid_optimal.driver"
    METRIC = "qtm"
