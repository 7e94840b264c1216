"""Solvers with known costs, for measuring the harness itself."""

from __future__ import annotations

import time

from harness.solver import Attempt, SolverSettings


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

    def __init__(self, settings=None) -> None:
        self.settings = settings

    def solve(self, cube, budget):
        end = time.thread_time() + 0.04
        while time.thread_time() < end:
            pass
        return Attempt(())


class Spin100:
    """Burns 100 ms of CPU per cube: the executors' comparison (issue 19)."""

    Settings = SolverSettings
    name = "spin100"

    def __init__(self, settings=None) -> None:
        self.settings = settings

    def solve(self, cube, budget):
        end = time.thread_time() + 0.1
        while time.thread_time() < end:
            pass
        return Attempt(())
