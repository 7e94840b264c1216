"""Run solvers over suites: workers, outside limits, verification, resumable records.

The Python API behind ``bench run``. One :class:`RunConfig` describes a run; :func:`run`
executes it into a run folder and :func:`resume` finishes an interrupted one. Solvers run
one after another; each gets ``workers`` processes that load it once.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

from harness.cube import facelets_to_state
from harness.progress import RunProgress
from harness.records.provenance import git_info, machine_info, package_versions
from harness.records.schema import SCHEMA_VERSION, Record, RecordError
from harness.records.store import RunStore
from harness.registry import describe_settings
from harness.solver import Budget, SettingsError, SolverLoadError, check_limits, kill_after
from harness.suites.model import Suite, SuiteError
from harness.suites.registry import load_suite
from harness.verify import judge
from harness.workers import Task, Worker, describe_exit, start_solvers, stop_all

_MAX_LOAD_DEATHS = 3


@dataclass(frozen=True)
class SolverSpec:
    """A solver and its settings; ``label`` tells apart two entries of one solver (a sweep).
    Records and the manifest key the entry by ``key``: the label, else the name."""

    name: str
    settings: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def key(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class RunConfig:
    """Everything that defines a run; stored in the manifest so a run can be resumed.

    Attributes:
        time_limit: wall seconds per instance, enforced from outside the solver.
        memory_limit_gb: a worker above this resident size is killed (``error``).
    """

    solvers: tuple[SolverSpec, ...]
    suites: tuple[str, ...]
    limit: int | None = None
    time_limit: float = 60.0
    max_nodes: int | None = None
    max_model_calls: int | None = None
    max_length: int | None = None
    workers: int = 1
    memory_limit_gb: float | None = 8.0
    out: str = "results"
    seed: int = 0

    def __post_init__(self) -> None:
        check_limits(
            self,
            positive=("time_limit", "memory_limit_gb"),
            counts=("limit", "workers", "max_nodes", "max_model_calls", "max_length"),
            flags=True,
        )

    @property
    def budget(self) -> Budget:
        return Budget(self.time_limit, self.max_nodes, self.max_model_calls, self.max_length)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunConfig:
        data = dict(data)
        data["solvers"] = tuple(SolverSpec(**s) for s in data["solvers"])
        data["suites"] = tuple(data["suites"])
        return cls(**data)


class RunInterruptedError(Exception):
    """Ctrl-C: the run stopped cleanly and can be resumed."""

    def __init__(self, store: RunStore) -> None:
        super().__init__(f"interrupted; resume with: bench run --resume {store.folder}")
        self.store = store


def run(
    config: RunConfig,
    *,
    show_progress: bool = True,
    command: list[str] | None = None,
    run_id: str | None = None,
) -> RunStore:
    """Start a new run; returns its store once every instance has a record."""
    suites = _load_suites(config)
    keys = [s.key for s in config.solvers]
    if len(set(keys)) != len(keys):
        raise SettingsError(f"solvers {', '.join(keys)}: each entry needs its own label")
    settings = {s.key: describe_settings(s.name, s.settings) for s in config.solvers}
    started = start_solvers(_named(config.solvers), config.budget)  # before anything is written
    solver_of = {s.key: s.name for s in config.solvers}
    stamp = datetime.now(UTC)
    run_id = (
        run_id
        or stamp.strftime("%Y%m%dT%H%M%SZ")
        + "-"
        + "-".join(dict.fromkeys(s.name.replace(":", ".") for s in config.solvers))[:60]
    )
    store = RunStore(Path(config.out) / run_id)
    if store.folder.exists():
        stop_all(started)
        raise RecordError(f"run folder {store.folder} exists; use --resume or another --out")
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id,
        "command": command or sys.argv,
        "config": asdict(config),
        "suites": {
            s.name: {"sha256": s.sha256, "count": len(s), "meta": s.meta, "states": s.states_sha256}
            for s in suites
        },
        "solvers": {
            key: {"solver": solver_of[key], "settings": value, **started[key].meta}
            for key, value in settings.items()
        },
        "packages": package_versions(),
        "git": git_info(),
        "machine": machine_info(),
        "seed": config.seed,
        "started": stamp.isoformat(),
        "finished": None,
    }
    store.write_manifest(manifest)
    return _execute(store, config, suites, manifest, show_progress, started)


def resume(folder: Path, *, show_progress: bool = True) -> RunStore:
    """Continue an interrupted run: finished instances are kept and not redone."""
    store = RunStore(folder)
    manifest = store.read_manifest()
    config = RunConfig.from_dict(manifest["config"])
    suites = _load_suites(config)
    for suite in suites:
        pinned = manifest["suites"][suite.name]["sha256"]
        if suite.sha256 != pinned:
            raise SuiteError(
                f"suite {suite.name} changed since the run started "
                f"({pinned[:12]}… -> {suite.sha256[:12]}…); start a new run"
            )
    done = {r.key for r in store.read_records()}
    todo = [s for s in config.solvers if next(_tasks(s.key, suites, config.limit, done), None)]
    started = start_solvers(_named(todo), config.budget)
    # each part of a run names the code it ran with; the records do not say which part
    # wrote them, so a resume under a different checkpoint is refused
    for name, worker in started.items():
        try:
            _check_pinned(manifest["solvers"][name], worker.meta, name, store)
        except RecordError:
            stop_all(started)
            raise
    manifest.setdefault("resumed", []).append(
        {"at": datetime.now(UTC).isoformat(), "git": git_info(), "packages": package_versions()}
    )
    store.write_manifest(manifest)
    return _execute(store, config, suites, manifest, show_progress, started)


def _named(specs: Iterable[SolverSpec]) -> dict[str, tuple[str, dict[str, Any]]]:
    return {spec.key: (spec.name, spec.settings) for spec in specs}


def _check_pinned(
    known: dict[str, Any], meta: dict[str, Any], solver: str, store: RunStore
) -> None:
    pinned, loaded = known.get("checkpoint_sha256"), meta.get("checkpoint_sha256")
    if "checkpoint_sha256" in known and pinned != loaded:
        raise RecordError(
            f"{solver} loaded checkpoint {str(loaded)[:12]}… but the records already in "
            f"{store.folder} came from {str(pinned)[:12]}…; start a new run"
        )


def _load_suites(config: RunConfig) -> list[Suite]:
    if not config.solvers or not config.suites:
        raise SuiteError("a run needs at least one solver and one suite")
    return [load_suite(name) for name in config.suites]


def _execute(
    store: RunStore,
    config: RunConfig,
    suites: list[Suite],
    manifest: dict,
    show_progress: bool,
    started: dict[str, Worker],
) -> RunStore:
    done = {r.key: r for r in store.read_records()}

    def on_ready(solver: str, meta: dict[str, Any]) -> None:
        """Pin the solver's checkpoint in the manifest as soon as a worker has loaded it."""
        known = manifest["solvers"][solver]
        _check_pinned(known, meta, solver, store)
        if known.items() >= meta.items():
            return
        known.update(meta)
        store.write_manifest(manifest)

    totals = {
        (sp.key, s.name): min(len(s), config.limit or len(s))
        for sp in config.solvers
        for s in suites
    }
    progress = RunProgress(totals, done.values(), enabled=show_progress)
    try:
        with progress:
            for spec in config.solvers:
                tasks = list(_tasks(spec.key, suites, config.limit, done))
                first = started.pop(spec.key, None)
                if tasks:
                    meta = _run_solver(
                        spec, tasks, suites, config, store, progress, on_ready, first
                    )
                    manifest["solvers"][spec.key].update(meta)
                    store.write_manifest(manifest)
                elif first is not None:
                    first.stop()
    except KeyboardInterrupt:
        manifest["interrupted"] = datetime.now(UTC).isoformat()
        store.write_manifest(manifest)
        raise RunInterruptedError(store) from None
    finally:
        stop_all(started)
        store.close()
    manifest["finished"] = datetime.now(UTC).isoformat()
    manifest.pop("interrupted", None)
    store.write_manifest(manifest)
    return store


def _tasks(solver: str, suites: list[Suite], limit: int | None, done: dict) -> Iterator[Task]:
    for suite in suites:
        for inst in suite.instances[: limit or len(suite)]:
            if (solver, suite.name, inst.id) not in done:
                yield Task((solver, suite.name, inst.id), inst.facelets)


def _run_solver(
    spec: SolverSpec,
    tasks: list[Task],
    suites: list[Suite],
    config: RunConfig,
    store: RunStore,
    progress: RunProgress,
    on_ready: Callable[[str, dict[str, Any]], None],
    first: Worker | None = None,
) -> dict[str, Any]:
    """Feed ``tasks`` to ``config.workers`` processes (``first``: one already loaded);
    record each verified outcome. A worker that fails to load stops the run."""
    optimal = {(s.name, i.id): (i.optimal_htm, i.optimal_qtm) for s in suites for i in s.instances}
    budget = config.budget
    memory_limit = (config.memory_limit_gb or 0) * 2**30
    pending = list(reversed(tasks))
    count = min(config.workers, len(tasks))
    workers = [first] if first is not None else []
    workers += [Worker(spec.name, spec.settings, budget) for _ in range(count - len(workers))]
    meta: dict[str, Any] = {}
    if first is not None:  # loaded before the run: pinned like any other worker
        meta = first.meta
        on_ready(spec.key, meta)
    load_deaths = 0

    def finish(task: Task, record: Record) -> None:
        store.append(record)
        progress.update(record)

    def replace(worker: Worker) -> Worker:
        worker.kill()
        return Worker(spec.name, spec.settings, budget)

    try:
        while pending or any(w.task for w in workers):
            for w in workers:
                if w.ready and w.task is None and pending:
                    w.send(pending.pop())
            ready_conns = wait([w.conn for w in workers], timeout=0.05)
            for i, w in enumerate(workers):
                if w.conn in ready_conns:
                    try:
                        message = w.receive()
                    except (EOFError, OSError):
                        message = ("died",)
                    kind = message[0]
                    if kind == "ready":
                        w.ready, meta = True, message[1]
                        on_ready(spec.key, meta)
                    elif kind == "load_error":
                        raise SolverLoadError(_stopped(spec.key, message[1], store))
                    elif kind in ("result", "error"):
                        task, w.task = w.task, None
                        finish(task, _verdict(message, task, suites, optimal, budget))
                    elif kind == "died":
                        if w.task is not None:
                            finish(w.task, _failure(w.task, "error", describe_exit(w), None))
                            w.task = None
                        elif not w.ready:
                            load_deaths += 1
                            if load_deaths >= _MAX_LOAD_DEATHS:
                                why = _stopped(spec.key, describe_exit(w), store)
                                raise SolverLoadError(why)
                        workers[i] = replace(w)
                    continue
                if w.task is not None:
                    elapsed = time.monotonic() - w.sent_at
                    if elapsed > kill_after(config.time_limit):
                        finish(
                            w.task,
                            _failure(
                                w.task,
                                "timeout",
                                f"killed after {elapsed:.1f} s (limit {config.time_limit} s)",
                                elapsed,
                            ),
                        )
                        workers[i] = replace(w)
                    elif memory_limit and w.rss_bytes() > memory_limit:
                        finish(
                            w.task,
                            _failure(
                                w.task,
                                "error",
                                f"killed: memory above {config.memory_limit_gb} GB",
                                elapsed,
                            ),
                        )
                        workers[i] = replace(w)
    finally:
        for w in workers:
            w.stop()
    return meta


def _stopped(solver: str, why: str, store: RunStore) -> str:
    """A solver that loaded at the start but not in a later worker (its checkpoint changed
    during the run, say): the run stops; what it finished is kept."""
    return (
        f"solver {solver} failed to load in a new worker: {why}; the finished records are "
        f"kept (bench run --resume {store.folder})"
    )


def _verdict(
    message: tuple, task: Task, suites: list[Suite], optimal: dict, budget: Budget
) -> Record:
    solver, suite, instance = task.key
    if message[0] == "error":
        return _failure(task, "error", message[2], message[3])
    state = facelets_to_state(task.facelets, validate=False)
    return judge(
        state,
        message[2],
        budget,
        solver=solver,
        suite=suite,
        instance=instance,
        optimal=optimal[(suite, instance)],
    )


def _failure(task: Task, status: str, error: str, wall: float | None) -> Record:
    solver, suite, instance = task.key
    return Record(
        solver=solver,
        suite=suite,
        instance=instance,
        status=status,
        error=error[:2000],
        wall_s=None if wall is None else round(wall, 6),
    )
