"""Fake solvers for runner tests: each misbehaves in one way (importable by workers)."""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass
from typing import ClassVar

import kociemba
import numpy as np

from cubebench.harness.cube import is_solved, parse_moves, state_to_facelets
from cubebench.harness.cube.puzzle import puzzle
from cubebench.harness.settings import SolverSettings
from cubebench.harness.solver import Attempt, Budget


def _kociemba_moves(cube: np.ndarray) -> tuple[int, ...]:
    if is_solved(cube):
        return ()
    return tuple(parse_moves(kociemba.solve(state_to_facelets(cube))))


class _Fake:
    Settings = SolverSettings

    def __init__(self, settings: SolverSettings | None = None) -> None:
        self.settings = settings or SolverSettings()
        self.name = type(self).__name__.lower()


def _within(moves: tuple[int, ...], budget: Budget) -> tuple[int, ...]:
    """An answer over the length budget is given up, as a solver that respects it does."""
    return () if budget.max_length is not None and len(moves) > budget.max_length else moves


class Right(_Fake):
    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        moves = _within(_kociemba_moves(cube), budget)
        return Attempt(moves, nodes_expanded=7, model_calls=2, info={"ok": 1})


class ShallowCube2(_Fake):
    """A 2×2×2 solver: the first of every sequence of up to three face turns that solves."""

    puzzles = ("cube2",)

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        cube2 = puzzle("cube2")
        for length in range(4):
            for moves in itertools.product(range(18), repeat=length):
                if cube2.is_solved(cube2.apply(cube, moves)):
                    return Attempt(moves, nodes_expanded=1)
        return Attempt(())


class WrongCube2(_Fake):
    """Answers every 2×2×2 with one U turn, and a cube3 move id past the 2×2×2's on the last."""

    puzzles = ("cube2", "cube3")

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        return Attempt((0,) if cube.shape == (24,) else (18,))


class RightQuarter(_Fake):
    """Kociemba's answer with every half turn played as two quarter turns: an entry that
    searches the quarter-turn metric, as the site shows it."""

    metric = "qtm"

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        moves: list[int] = []
        for move in _kociemba_moves(cube):
            moves += [move - 1, move - 1] if move % 3 == 1 else [move]  # X2 -> X X
        return Attempt(tuple(moves), nodes_expanded=9, model_calls=3, info={"metric": "qtm"})


@dataclass(frozen=True)
class PauseSettings(SolverSettings):
    pause: float = 0.05
    gate: str = ""  # a file: no cube is answered before it exists


@dataclass(frozen=True)
class WorkSettings(SolverSettings):
    work: float = 0.3  # CPU seconds a cube


class CpuWork(_Fake):
    """Right, after ``work`` seconds of CPU time a cube (a busy loop): the same work on any
    machine however loaded, and it does not watch its clock."""

    Settings = WorkSettings

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        end = time.process_time() + self.settings.work
        while time.process_time() < end:
            pass
        return Attempt(_kociemba_moves(cube))


class Pausing(_Fake):
    """Right, but takes ``pause`` seconds per cube (for kill-and-resume tests), and answers
    nothing while its ``gate`` file is missing."""

    Settings = PauseSettings

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        while self.settings.gate and not os.path.exists(self.settings.gate):
            time.sleep(0.05)
        time.sleep(self.settings.pause)
        return Attempt(_kociemba_moves(cube))


class Wrong(_Fake):
    def solve(self, cube, budget):
        return Attempt((0, 3))  # legal moves that solve nothing


class Illegal(_Fake):
    def solve(self, cube, budget):
        return Attempt((0, 99, 1))


class Slow(_Fake):
    """Solves correctly but returns after its wall budget (not killed: within the grace)."""

    def solve(self, cube, budget):
        time.sleep(budget.wall_seconds + 0.3)
        return Attempt(_kociemba_moves(cube))


class Hanging(_Fake):
    def solve(self, cube, budget):
        time.sleep(10_000)
        return Attempt(())


class Crashing(_Fake):
    def solve(self, cube, budget):
        raise RuntimeError("boom in the solver")


class Dying(_Fake):
    def solve(self, cube, budget):
        os._exit(3)


class Hungry(_Fake):
    """Allocates memory until something stops it."""

    def solve(self, cube, budget):
        blocks = []
        for _ in range(80):  # up to 8 GB, touched so it is resident
            blocks.append(np.ones(100 * 2**20, dtype=np.uint8))
            time.sleep(0.02)
        return Attempt(())


class Mutating(_Fake):
    def solve(self, cube, budget):
        cube[0] = 5
        return Attempt(())


class NotAnAttempt(_Fake):
    def solve(self, cube, budget):
        return [0, 1, 2]


class BrokenLoad(_Fake):
    def __init__(self, settings=None):
        raise OSError("checkpoint weights.pt is corrupt")


class HangingLoad(_Fake):
    def __init__(self, settings=None):
        time.sleep(10_000)


class DyingLoad(_Fake):
    def __init__(self, settings=None):
        os._exit(4)


@dataclass(frozen=True)
class OnceSettings(SolverSettings):
    marker: str = ""


class LoadsOnce(_Fake):
    """Loads the first time (leaving ``marker``), then refuses; its solve kills its worker,
    so the replacement worker's load fails mid-run."""

    Settings = OnceSettings

    def __init__(self, settings: OnceSettings | None = None) -> None:
        super().__init__(settings)
        if os.path.exists(self.settings.marker):
            raise OSError("checkpoint changed since the run started")
        open(self.settings.marker, "w").close()

    def solve(self, cube, budget):
        os._exit(3)


class DiesOnce(_Fake):
    """Kills its own process on the first cube it sees while ``marker`` is absent (leaving
    the marker), then solves: a worker lost mid-instance."""

    Settings = OnceSettings

    def solve(self, cube, budget):
        if not os.path.exists(self.settings.marker):
            open(self.settings.marker, "w").close()
            os._exit(3)
        return Attempt(_kociemba_moves(cube))


class BuildsFirst(_Fake):
    """Loads only from a cache its ``prepare`` fills, in a time longer than a load may take
    (the test shortens the load timeout below it); ``marker`` gets the preparing process's id."""

    Settings = OnceSettings

    @classmethod
    def prepare(cls, settings: OnceSettings) -> None:
        time.sleep(6)
        with open(settings.marker, "w") as f:
            f.write(str(os.getpid()))

    def __init__(self, settings: OnceSettings | None = None) -> None:
        super().__init__(settings)
        if not os.path.exists(self.settings.marker):
            raise OSError("no cache: prepare did not run")

    def solve(self, cube, budget):
        return Attempt(_kociemba_moves(cube))


class HalfGPU(_Fake):
    """Declares its own needs: two workers share one GPU."""

    @classmethod
    def resources(cls, settings):
        return {"num_cpus": 1, "num_gpus": 0.5}

    def solve(self, cube, budget):
        return Attempt(_kociemba_moves(cube))


class Endless(_Fake):
    """Answers five million moves: the harness must not replay or store them."""

    def solve(self, cube, budget):
        return Attempt((0,) * 5_000_000)


@dataclass(frozen=True)
class RaceSettings(SolverSettings):
    marker: str = ""
    pause: float = 0.3


class SecondIsSlower(_Fake):
    """The first worker to answer does so at once, every other after ``pause`` seconds."""

    Settings = RaceSettings

    def solve(self, cube, budget):
        try:
            os.close(os.open(self.settings.marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            time.sleep(self.settings.pause)
        return Attempt(_kociemba_moves(cube))


class CrashesAfterFirst(_Fake):
    """Solves its first cube (leaving ``marker``), then crashes on every other."""

    Settings = OnceSettings

    def solve(self, cube, budget):
        if os.path.exists(self.settings.marker):
            raise RuntimeError("boom after one")
        open(self.settings.marker, "w").close()
        return Attempt(_kociemba_moves(cube))


class HelpOnTheSolver(Right):
    """Right, but declares its setting help where nothing reads it, and an odd metric."""

    OPTION_HELP: ClassVar = {"seed": "ignored here"}
    metric = "stm"


class Sluggish(_Fake):
    """Right, but takes 0.5 s on a short wall budget instead of stopping (a run at 0.2 s
    records every cube ``timeout``)."""

    def solve(self, cube, budget):
        if budget.wall_seconds is not None and budget.wall_seconds < 0.5:
            time.sleep(0.5)
        return Attempt(_within(_kociemba_moves(cube), budget))


class Padding(_Fake):
    """Right, but ignores ``max_length`` and pads its answers with ``U U'``."""

    def solve(self, cube, budget):
        moves = _kociemba_moves(cube)
        return Attempt((*moves, 0, 2) if moves else ())


class HalfRandom(_Fake):
    """Right, but every other answer on average carries a random ``R R'`` detour: correct
    and legal, not deterministic (its generator is seeded, so the test is reproducible)."""

    def __init__(self, settings: SolverSettings | None = None) -> None:
        super().__init__(settings)
        self._rng = np.random.default_rng(12345)

    def solve(self, cube, budget):
        moves = list(_kociemba_moves(cube))
        if moves and self._rng.random() < 0.5:
            at = int(self._rng.integers(len(moves) + 1))
            moves[at:at] = [3, 5]
        return Attempt(_within(tuple(moves), budget))


class Loud(Right):
    """Right, but prints 10 MB a cube on its standard output and error, some through C."""

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt:
        import sys

        print("x" * 5_000_000)
        sys.stdout.flush()
        os.write(2, b"y" * 5_000_000)
        return super().solve(cube, budget)
