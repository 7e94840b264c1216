"""What crosses the seam between the runner and a worker, as typed values.

A worker (a process here, or a Ray actor) is given a :class:`Task` and answers with a
:class:`Solved` (the solver returned; the harness judges the moves later) or a
:class:`Crashed` (the solver raised); when it starts it says :class:`Ready` or
:class:`LoadFailed`. The local executor adds :class:`Died` for a worker process that ended.
Every executor sends and decodes these, so none decodes tuples by position.
:func:`load_solver` and :func:`solve_task` are what every worker runs.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .. import processes
from ..cube import facelets_to_state
from ..cube.pieces import facelets_to_state as puzzle_facelets_to_state
from ..cube.puzzle import DEFAULT_PUZZLE, puzzle
from ..solver import Budget, checkpoint_of, metric_of, reload_of, runtime_info_of
from ..verify import RawAttempt, to_raw

if TYPE_CHECKING:
    from ..registry import Resolved


class TaskKey(NamedTuple):
    """Which instance a task is: the entry's key, the suite, the instance id."""

    entry: str
    suite: str
    instance: int


@dataclass(frozen=True)
class Task:
    """One cube to solve: which it is, its facelets, and the puzzle they are a state of."""

    key: TaskKey
    facelets: str
    puzzle: str = DEFAULT_PUZZLE


def task_state(task: Task) -> np.ndarray:
    """The task's state as the solver gets it: (6 N²,) uint8, (54,) on the 3×3×3."""
    if task.puzzle == DEFAULT_PUZZLE:
        return facelets_to_state(task.facelets, validate=False)
    return puzzle_facelets_to_state(puzzle(task.puzzle), task.facelets, validate=False)


@dataclass(frozen=True)
class LoadReport:
    """What a worker says when its solver has loaded: the adapter's name, the checkpoint
    it loaded, how it runs here (its ``runtime_info``) and what loading cost the process."""

    name: str
    checkpoint_sha256: str | None = None
    runtime: dict[str, Any] = field(default_factory=dict)
    load_s: float | None = None
    load_peak_rss_mb: float | None = None

    def pinned(self) -> dict[str, Any]:
        """The fields a manifest pins for the entry, flat (the file's layout)."""
        return {
            "name": self.name,
            "checkpoint_sha256": self.checkpoint_sha256,
            **self.runtime,
            "load_s": self.load_s,
            "load_peak_rss_mb": self.load_peak_rss_mb,
        }


@dataclass(frozen=True)
class Ready:
    """The solver loaded."""

    report: LoadReport


@dataclass(frozen=True)
class LoadFailed:
    reason: str


@dataclass(frozen=True)
class Solved:
    """The solver returned an attempt (which may still be wrong: the sink judges it)."""

    key: TaskKey
    raw: RawAttempt
    reloading: bool = False  # the worker reloads its solver before its next cube


@dataclass(frozen=True)
class Crashed:
    """The solver raised: this instance is lost, the worker goes on."""

    key: TaskKey
    error: str
    wall_s: float
    reloading: bool = False


@dataclass(frozen=True)
class Died:
    """The worker process ended (the local executor's own word)."""


Started = Ready | LoadFailed
Outcome = Solved | Crashed


def reload_solver(instance: Any) -> Started | None:
    """Reload a solver that asks for it after a cube (:func:`~cubebench.harness.solver.
    reload_of`); what to tell the runner, or None where it did not ask."""
    hook = reload_of(instance)
    if hook is None:
        return None
    start = time.perf_counter()
    try:
        hook()
    except BaseException as exc:  # report any reload failure, as a load's
        return LoadFailed(f"reload: {type(exc).__name__}: {exc}")
    report = LoadReport(
        name=instance.name,
        checkpoint_sha256=checkpoint_of(instance),
        runtime=runtime_info_of(instance),
        load_s=round(time.perf_counter() - start, 3),
        load_peak_rss_mb=peak_rss_mb(),
    )
    return Ready(report)


def load_solver(entry: Resolved) -> tuple[Any, Started]:
    """Make the solver of a resolved entry (its class from its target, its settings as
    parsed by the run: nothing is looked up or parsed again); returns it (or None) and what
    to tell the runner."""
    from ..registry import construct  # imported where solvers run only

    start = time.perf_counter()
    try:
        instance = construct(entry)
    except BaseException as exc:  # report any load failure
        return None, LoadFailed(f"{type(exc).__name__}: {exc}")
    report = LoadReport(
        name=instance.name,
        checkpoint_sha256=checkpoint_of(instance),
        runtime=runtime_info_of(instance),  # how the solver runs here, where it says
        # what loading cost this worker: a solver that builds a table at load is not free
        load_s=round(time.perf_counter() - start, 3),
        load_peak_rss_mb=peak_rss_mb(),
    )
    return instance, Ready(report)


def peak_rss_mb() -> float | None:
    """This process's peak resident memory so far, in MB (None where the OS does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)  # bytes or KB


def declared_metric(instance: Any) -> str:
    """The metric a solver searches, for records whose attempt does not say
    (:func:`~cubebench.harness.solver.metric_of`)."""
    metric = metric_of(instance)
    return metric if metric in ("htm", "qtm") else "htm"


class _CpuClock:
    """CPU seconds this process and every process below it (a program solver's program)
    spend from now on: user + system, all threads, from the kernel's accounting."""

    def __init__(self) -> None:
        self.own = time.process_time()
        self.children = processes.cpu_seconds(processes.descendants(os.getpid()))

    def spent(self) -> float:
        now = processes.cpu_seconds(processes.descendants(os.getpid()))
        return time.process_time() - self.own + max(now - self.children, 0.0)


def solve_task(instance: Any, task: Task, limits: Budget) -> Outcome:
    """One instance, timed: what the solver returned, or how it failed."""
    state = task_state(task)
    state.setflags(write=False)
    cpu = _CpuClock()
    start = time.perf_counter()
    try:
        attempt = instance.solve(state, limits)
        wall = time.perf_counter() - start
        raw = to_raw(attempt, wall, limits.max_length, cpu.spent())
        if isinstance(raw.info, dict) and "metric" not in raw.info:
            raw.info["metric"] = declared_metric(instance)
        return Solved(task.key, raw, reload_of(instance) is not None)
    except Exception as exc:  # a crashing solver costs one instance, never the run
        wall = time.perf_counter() - start
        error = f"{type(exc).__name__}: {exc}"
        return Crashed(task.key, error, wall, reload_of(instance) is not None)
