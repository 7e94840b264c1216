"""Turn what executors report into verified records, and notice a run that cannot work.

The runner's side of the :class:`~cubebench.harness.executors.base.Sink` seam: every answer
is replayed by :func:`~cubebench.harness.verify.judge` before its record is appended, each
instance is recorded once, and a solver entry whose first instances all fail the same way
stops the run instead of writing the same error for every cube.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .executors.messages import Crashed, LoadReport, Outcome, Task, task_state
from .progress import RunProgress
from .records.manifest import SolverPin
from .records.schema import Record, RecordError, Status
from .records.store import RunStore
from .solver import Budget
from .suites.model import Suite
from .verify import judge


class RunAbortedError(RecordError):
    """Every instance a solver entry tried so far failed the same way: the run stops."""


SAME_ERROR_STOP = 5
"""A run stops when a solver entry's first this-many instances all end in one identical
error (an impossible setting, a memory limit no worker fits in): finishing would only write
thousands of copies of it."""


def check_pinned(known: SolverPin, meta: Mapping[str, Any], solver: str, store: RunStore) -> None:
    pinned, loaded = known.pinned.get("checkpoint_sha256"), meta.get("checkpoint_sha256")
    if "checkpoint_sha256" in known.pinned and pinned != loaded:
        raise RecordError(
            f"{solver} loaded checkpoint {str(loaded)[:12]}… but the records already in "
            f"{store.folder} came from {str(pinned)[:12]}…; start a new run"
        )


class RecordSink:
    """Verifies what an executor reports for one solver entry and appends the record."""

    def __init__(
        self,
        key: str,
        suites: list[Suite],
        budget: Budget,
        store: RunStore,
        progress: RunProgress,
        nodes: Callable[[], dict[str, dict[str, Any]]] | None = None,
    ) -> None:
        self.key, self.suites, self.budget, self.nodes = key, suites, budget, nodes
        self.store, self.progress = store, progress
        self.optimal = {
            (s.name, i.id): (i.optimal_htm, i.optimal_qtm) for s in suites for i in s.instances
        }
        self.recorded: set[tuple[str, str, int]] = set()
        self.errors: list[str] | None = []  # while nothing else has come back: the errors so far

    def ready(self, report: LoadReport) -> None:
        """Pin the solver's checkpoint in the manifest as soon as a worker has loaded it,
        and name the machine it loaded on (a run killed later still says where it ran)."""
        manifest = self.store.manifest
        known = manifest.solvers[self.key]
        meta = report.pinned()
        check_pinned(known, meta, self.key, self.store)
        for cost in ("load_s", "load_peak_rss_mb"):  # the costliest of the entry's workers
            had = known.pinned.get(cost)
            if isinstance(had, int | float) and isinstance(meta.get(cost), int | float):
                meta[cost] = max(had, meta[cost])
        seen = self.nodes() if self.nodes is not None else {}
        updated = manifest.with_solver(self.key, known.with_pinned(meta)).with_nodes(seen)
        if updated != manifest:
            self.store.write_manifest(updated)

    def result(self, task: Task, message: Outcome) -> None:
        suite, instance = task.key[1:]
        self._finish(task, verdict(message, task, self.optimal[(suite, instance)], self.budget))

    def failure(self, task: Task, status: Status, error: str, wall: float | None) -> None:
        self._finish(task, failure_record(task, status, error, wall))

    def _finish(self, task: Task, record: Record) -> None:
        if task.key in self.recorded:  # a late duplicate from a replaced worker
            return
        self.recorded.add(task.key)
        self.store.append(record)
        self.progress.update(record)
        self._stop_on_one_repeated_error(record)

    def _stop_on_one_repeated_error(self, record: Record) -> None:
        if self.errors is None:
            return
        if record.status != "error":
            self.errors = None  # something worked (or failed otherwise): the run goes on
            return
        self.errors.append(record.error or "")
        if len(self.errors) >= SAME_ERROR_STOP and len(set(self.errors)) == 1:
            raise RunAbortedError(
                f"{self.key}: its first {len(self.errors)} instances all ended in "
                f"'{self.errors[0][:300]}'; the run stopped (fix the cause, then start a "
                f"new run; {self.store.folder} keeps what was recorded)"
            )


def verdict(
    message: Outcome, task: Task, optimal: tuple[int | None, int | None], budget: Budget
) -> Record:
    """The record of what a worker answered for ``task``: the solver's moves replayed and
    judged (``optimal``: the cube's known HTM and QTM optima), or its crash. ``bench run``
    and ``bench solve`` both record through here."""
    solver, suite, instance = task.key
    if isinstance(message, Crashed):
        return failure_record(task, "error", message.error, message.wall_s)
    return judge(
        task_state(task),
        message.raw,
        budget,
        solver=solver,
        suite=suite,
        instance=instance,
        optimal=optimal,
        puzzle_name=task.puzzle,
    )


def failure_record(task: Task, status: Status, error: str, wall: float | None) -> Record:
    """The record of a task the executor gave up on (``timeout``, ``error``)."""
    solver, suite, instance = task.key
    return Record(
        entry=solver,
        suite=suite,
        instance=instance,
        status=status,
        error=error[:2000],
        wall_s=None if wall is None else round(wall, 6),
    )
