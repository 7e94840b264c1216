"""The seam between the runner and the places solvers run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..records.schema import Status
from ..registry import Resolved
from ..solver import Budget
from .messages import LoadReport, Outcome, Task


@dataclass(frozen=True)
class Job:
    """One solver entry of a run and the limits its instances run under."""

    key: str  # the entry's key in records and manifest (label, else name)
    entry: Resolved  # its solver, resolved and its settings parsed once, by the run
    budget: Budget  # its wall seconds are the instance's time limit, enforced from outside too
    memory_limit_gb: float | None
    workers: int
    log: str = ""  # a file each worker's standard output and error go to, capped; "": inherited

    @property
    def name(self) -> str:
        """The registered solver."""
        return self.entry.name


class Sink(Protocol):
    """Where an executor reports; the runner's, which verifies and writes records."""

    def ready(self, report: LoadReport) -> None:
        """A worker loaded the solver; may raise to stop the run when the checkpoint
        differs from the one pinned."""

    def result(self, task: Task, message: Outcome) -> None:
        """What a worker answered for ``task``: the solver's attempt, or its crash."""

    def failure(self, task: Task, status: Status, error: str, wall: float | None) -> None:
        """The executor gave up on ``task``: ``timeout`` or ``error`` (killed, died)."""


class Handle(Protocol):
    report: LoadReport | None  # what it said when it loaded


H = TypeVar("H", bound=Handle)
"""An executor's own handle on a loaded worker (a process here, or a Ray actor)."""


class Executor(Protocol[H]):
    name: str

    def preload(self, jobs: list[Job]) -> dict[str, H]:
        """One loaded worker per job, before the run writes anything, or
        :class:`~cubebench.harness.solver.SolverLoadError`; the workers then serve the run."""

    def run(self, job: Job, tasks: list[Task], sink: Sink, first: H | None) -> None:
        """Solve ``tasks`` with ``job.workers`` workers, reporting each to ``sink``."""

    def stop(self, handles: dict[str, H]) -> None:
        """Stop preloaded workers a run did not use."""

    def nodes(self) -> dict[str, dict[str, Any]]:
        """The machines the run used (node id -> machine info); empty when local."""

    def close(self) -> None:
        """Release what the executor holds (a Ray connection)."""
