"""What crosses the seam between the runner and a replica, as typed values.

A replica (a worker process, a Ray actor) is given a :class:`Task` and answers with a
:class:`Solved` (the solver returned; the harness judges the moves later) or a
:class:`Crashed` (the solver raised); when it starts it says :class:`Ready` or
:class:`LoadFailed`. The local executor adds :class:`Died` for a worker process that ended.
Every executor sends and decodes these, so none decodes tuples by position.
:func:`load_solver` and :func:`solve_task` are what every replica runs.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any

from ..cube import facelets_to_state
from ..solver import Budget
from ..verify import RawAttempt, to_raw

TaskKey = tuple[str, str, int]
"""solver entry, suite, instance id"""


@dataclass(frozen=True)
class Task:
    key: TaskKey
    facelets: str


@dataclass(frozen=True)
class Ready:
    """The solver loaded: its name, checkpoint, runtime and what loading cost."""

    meta: dict[str, Any]


@dataclass(frozen=True)
class LoadFailed:
    reason: str


@dataclass(frozen=True)
class Solved:
    """The solver returned an attempt (which may still be wrong: the sink judges it)."""

    key: TaskKey
    raw: RawAttempt


@dataclass(frozen=True)
class Crashed:
    """The solver raised: this instance is lost, the replica goes on."""

    key: TaskKey
    error: str
    wall_s: float


@dataclass(frozen=True)
class Died:
    """The worker process ended (the local executor's own word)."""


Started = Ready | LoadFailed
Outcome = Solved | Crashed


def load_solver(solver: str, settings: dict[str, Any]) -> tuple[Any, Started]:
    """Make the solver; returns it (or None) and what to tell the runner."""
    from ..registry import make_solver  # imported where solvers run only

    start = time.perf_counter()
    try:
        instance = make_solver(solver, settings)
    except BaseException as exc:  # report any load failure
        return None, LoadFailed(f"{type(exc).__name__}: {exc}")
    meta = {
        "name": instance.name,
        "checkpoint_sha256": getattr(instance, "checkpoint_sha256", None),
        # how the solver runs here (precision, threads), where it says
        **dict(getattr(instance, "runtime_info", {}) or {}),
        # what loading cost this worker: a solver that builds a table at load is not free
        "load_s": round(time.perf_counter() - start, 3),
        "load_peak_rss_mb": peak_rss_mb(),
    }
    return instance, Ready(meta)


def peak_rss_mb() -> float | None:
    """This process's peak resident memory so far, in MB (None where the OS does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)  # bytes or KB


def declared_metric(instance: Any) -> str:
    """The metric a solver searches, for records whose attempt does not say: its ``metric``
    attribute, else its settings' ``metric``, else the face-turn metric."""
    for source in (instance, getattr(instance, "settings", None)):
        metric = getattr(source, "metric", None)
        if metric in ("htm", "qtm"):
            return metric
    return "htm"


def solve_task(instance: Any, task: Task, limits: Budget) -> Outcome:
    """One instance, timed: what the solver returned, or how it failed."""
    state = facelets_to_state(task.facelets, validate=False)
    state.setflags(write=False)
    start = time.perf_counter()
    try:
        attempt = instance.solve(state, limits)
        wall = time.perf_counter() - start
        raw = to_raw(attempt, wall, limits.max_length)
        if isinstance(raw.info, dict) and "metric" not in raw.info:
            raw.info["metric"] = declared_metric(instance)
        return Solved(task.key, raw)
    except Exception as exc:  # a crashing solver costs one instance, never the run
        return Crashed(task.key, f"{type(exc).__name__}: {exc}", time.perf_counter() - start)
