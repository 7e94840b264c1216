"""The one interface every solver implements, and the values that cross it.

A solver gets a state and a budget and returns moves; it never sees the scramble or the
known optimum. It does not decide whether it succeeded: the runner replays the moves on the
engine and records the outcome, so a solver that lies costs one instance and nothing else.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import InputError
from .naming import ArgumentError

DEFAULT_TIME_LIMIT_S = 60.0
"""Seconds a cube unless a run says otherwise (``bench run``, ``bench solve``, the API)."""

CLOCKS = ("cpu", "wall")
"""What a time limit counts: the solver's CPU seconds (user + system, of its worker and every
process the worker started; the default of a run, so that a busy machine does not change the
answers) or wall-clock seconds (for a solver whose work is not on the CPU: a GPU's)."""
WALL_CAP = 3.0
"""Under a CPU-time limit, the wall clock still stops a cube at this multiple of the limit (a
solver waiting on nothing, or sharing its core with two others)."""


@dataclass(frozen=True)
class Budget:
    """Limits for one instance. ``None`` means no limit of that kind.

    Attributes:
        wall_seconds: the time limit for the instance, in seconds of ``clock`` (its name is
            older than the CPU clock); the runner also enforces it from outside (a solver that
            overruns is killed and the instance is a ``timeout``).
        max_nodes: states a search may expand.
        max_model_calls: batched network evaluations a solver may make.
        max_length: longest solution the solver may return, in moves as returned (a half
            turn is one move; a quarter-turn solver returns quarter turns only, so for it this
            is a quarter-turn length, and its searches cap their depth at it).
        clock: ``wall`` (the API's default) or ``cpu`` (a run's): what the limit counts. A
            cooperative solver reads time with :meth:`now` and stops at :meth:`deadline`,
            so it keeps to either.
    """

    wall_seconds: float | None = DEFAULT_TIME_LIMIT_S
    max_nodes: int | None = None
    max_model_calls: int | None = None
    max_length: int | None = None
    clock: str = "wall"

    def __post_init__(self) -> None:
        check_limits(
            self,
            positive=("wall_seconds",),
            counts=("max_nodes", "max_model_calls", "max_length"),
        )
        if self.clock not in CLOCKS:
            raise ArgumentError(f"--budget {self.clock!r}: choose {' or '.join(CLOCKS)}")

    def now(self) -> float:
        """The time on the budget's clock: this process's CPU seconds (all its threads), or
        ``time.monotonic()``."""
        return time.process_time() if self.clock == "cpu" else time.monotonic()

    def deadline(self, start: float | None = None) -> float:
        """The :meth:`now` value after which a cooperative solver should stop."""
        start = self.now() if start is None else start
        return start + (self.wall_seconds if self.wall_seconds is not None else float("inf"))

    def wall_cap(self) -> float | None:
        """The wall-clock seconds after which a cube is over its time whatever its clock."""
        if self.wall_seconds is None:
            return None
        return self.wall_seconds * (WALL_CAP if self.clock == "cpu" else 1.0)


MIN_MEMORY_GB = 0.25
"""The smallest memory limit accepted: a limit no worker fits in would kill every instance."""


def kill_after(wall_seconds: float) -> float:
    """When the runner kills a solver that has not answered: its wall budget plus a grace of
    1 s + 10% (model loading is outside the budget; answering takes a moment)."""
    return wall_seconds + 1.0 + 0.1 * wall_seconds


@dataclass(frozen=True)
class Attempt:
    """What a solver returns: its moves (ids 0..17) and what it spent finding them.

    An empty ``moves`` on an unsolved cube means the solver gave up; ``info`` is free-form
    (for example the search's final beam width) and is stored with the record.
    """

    moves: tuple[int, ...]
    nodes_expanded: int = 0
    model_calls: int = 0
    info: Mapping[str, Any] = field(default_factory=dict)


def check_limits(
    obj: object, *, positive: Sequence[str] = (), counts: Sequence[str] = (), flags: bool = False
) -> None:
    """Refuse, by name, a field of ``obj`` that is not a positive finite number
    (``positive``) or not a whole number ≥ 1 (``counts``); None means no limit.

    ``flags`` names the field as its ``bench run`` option (``--time-limit``).
    """
    for name in (*positive, *counts):
        value = getattr(obj, name)
        if value is None:
            continue
        label = f"--{name.replace('_', '-')} {value!r}" if flags else f"{name}={value!r}"
        if name in counts:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ArgumentError(f"{label}: must be a whole number ≥ 1")
        elif (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value <= 0
        ):
            raise ArgumentError(f"{label}: must be a positive number of seconds or GB")
        elif name == "memory_limit_gb" and value < MIN_MEMORY_GB:
            raise ArgumentError(
                f"{label}: below {MIN_MEMORY_GB} GB no worker can load a solver "
                "(Python and numpy alone take about 0.1 GB)"
            )


@runtime_checkable
class Solver(Protocol):
    """Anything with a ``name`` and ``solve``.

    ``cube`` is a read-only (54,) uint8 state in kociemba facelet order
    (:mod:`cubebench.harness.cube`); on another puzzle the solver declares
    (:class:`SolverHooks`: ``puzzles``) it is that puzzle's (6 N²,) state and moves are ids
    into its :attr:`~cubebench.harness.cube.puzzle.Puzzle.move_names`. The runner gives a
    solver one cube at a time, so that each answer has its own time and budget; a model
    batches inside its search.
    """

    name: str

    def solve(self, cube: np.ndarray, budget: Budget) -> Attempt: ...


class SolverHooks(Protocol):
    """What a solver class may add to :class:`Solver`, each optional, each with the default
    the harness uses where it is missing; this is the one place that looks for them.

    - ``prepare(settings)``, a classmethod: one-time work before any worker loads (a table
      built into the cache), in the run's own process, with no time limit. Default: none.
    - ``resources(settings)``, a classmethod: what one worker needs from a cluster,
      ``{"num_cpus": ..., "num_gpus": ...}``. Default: its ``threads`` setting in CPUs (1
      without one), and one GPU where its ``device`` setting names cuda.
    - ``runtime_info``: how the loaded solver runs here (precision, threads, the model's
      size), pinned in the manifest. Default: nothing.
    - ``checkpoint_sha256``: the loaded weights' hash, pinned and part of the entry's
      identity. Default: None.
    - ``metric``: the move set it searches, ``htm`` or ``qtm``. Default: its ``metric``
      setting, else ``htm``.
    - ``puzzles``, on the class: the puzzles it solves (``("cube2", "cube3")``). A run
      refuses it on another puzzle's suite before anything starts. Default: ``("cube3",)``.
    - an attempt's ``info``: free-form, stored with the record (``info["metric"]`` says the
      move set of that answer; ``info["gave_up"]`` why it has none).
    - ``needs_reload`` and ``reload()``: a solver that lost its state on a cube (a program
      solver whose program was killed) sets ``needs_reload``; its worker then calls
      ``reload()`` before it takes another cube, and the restart is charged to no cube.
      Default: never.
    """

    @classmethod
    def prepare(cls, settings: Any) -> None: ...

    @classmethod
    def resources(cls, settings: Any) -> Mapping[str, float]: ...

    runtime_info: Mapping[str, Any]
    checkpoint_sha256: str | None
    metric: str
    puzzles: tuple[str, ...]


def prepare_hook(cls: type) -> Any:
    """The class's ``prepare`` classmethod, or None (:class:`SolverHooks`)."""
    hook = getattr(cls, "prepare", None)
    return hook if callable(hook) else None


def resources_of(cls: type, settings: Any) -> dict[str, float]:
    """What one worker needs (:class:`SolverHooks`: ``resources``, or the default)."""
    hook = getattr(cls, "resources", None)
    if callable(hook):
        return dict(hook(settings))
    device = str(getattr(settings, "device", "cpu"))
    return {
        "num_cpus": float(getattr(settings, "threads", 1)),
        "num_gpus": 1.0 if device.startswith("cuda") else 0.0,
    }


def puzzles_of(solver: object) -> tuple[str, ...]:
    """The puzzles a solver (its class, or a loaded one: a program's file says) solves
    (:class:`SolverHooks`: ``puzzles``, else cube3)."""
    declared = getattr(solver, "puzzles", ("cube3",))
    if isinstance(declared, str) or not all(isinstance(p, str) for p in declared):
        raise TypeError(f"{solver!r}.puzzles must be a tuple of puzzle names")
    return tuple(declared)


def reload_of(solver: object) -> Any:
    """The solver's ``reload`` method when it asks for one now, else None (:class:`SolverHooks`)."""
    hook = getattr(solver, "reload", None)
    return hook if callable(hook) and getattr(solver, "needs_reload", False) is True else None


def runtime_info_of(solver: object) -> dict[str, Any]:
    """How a loaded solver runs (:class:`SolverHooks`: ``runtime_info``, or nothing)."""
    return dict(getattr(solver, "runtime_info", None) or {})


def checkpoint_of(solver: object) -> str | None:
    """A loaded solver's weights' hash (:class:`SolverHooks`: ``checkpoint_sha256``)."""
    value = getattr(solver, "checkpoint_sha256", None)
    return value if isinstance(value, str) else None


def metric_of(solver: object) -> str:
    """The move set a solver searches (:class:`SolverHooks`: ``metric``, else its
    ``metric`` setting, else ``htm``)."""
    default = getattr(getattr(solver, "settings", None), "metric", "htm")
    metric = getattr(solver, "metric", default)
    return metric if isinstance(metric, str) else "htm"


class SolverLoadError(InputError):
    """A solver that cannot start: a missing, corrupt or tampered checkpoint, say.

    Adapters raise it (or a subclass) so ``bench`` reports one clear line.
    """
