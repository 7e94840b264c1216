"""What the optimal solver's tests share: the breadth-first oracle and the solver on its small
tables (built in about a second into the test's folder), each made once a metric."""

from __future__ import annotations

import functools
from pathlib import Path

from cubebench.harness.suites.oracle import DistanceOracle
from cubebench.solvers.optimal.solver import OptimalSettings, OptimalSolver


@functools.cache
def oracle(metric: str) -> DistanceOracle:
    return DistanceOracle.build(4, metric=metric)


@functools.cache
def small_solver(metric: str, folder: str) -> OptimalSolver:
    return OptimalSolver(OptimalSettings(metric=metric, tables="small"), folder=Path(folder))
