"""Solvers with known costs, for measuring the harness itself."""

from __future__ import annotations

import time

from cubebench.harness.settings import SolverSettings
from cubebench.harness.solver import Attempt


class Instant:
    """Gives up at once: what is left of a run's time is the harness's own."""

    Settings = SolverSettings
    name = "instant"

    def __init__(self, settings=None) -> None:
        self.settings = settings

    def solve(self, cube, budget):
        return Attempt(())


class Spin:
    """Burns 40 ms of CPU per cube: a stand-in for a CPU-bound search."""

    Settings = SolverSettings
    name = "spin"
    seconds = 0.04

    def __init__(self, settings=None) -> None:
        self.settings = settings

    def solve(self, cube, budget):
        end = time.thread_time() + self.seconds
        while time.thread_time() < end:
            pass
        return Attempt(())


class Spin100(Spin):
    """Burns 100 ms of CPU per cube: the executors' comparison (issue 19)."""

    name = "spin100"
    seconds = 0.1
