"""Run solvers over suites: workers, outside limits, verification, resumable records.

The Python API behind ``bench run``. One :class:`RunConfig` describes a run; :func:`run`
executes it into a run folder and :func:`resume` finishes an interrupted one. Solvers run
one after another; each gets ``workers`` processes that load it once.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cubebench.harness.cube import facelets_to_state
from cubebench.harness.executors import EXECUTORS, Executor, Job, make_executor
from cubebench.harness.progress import RunProgress
from cubebench.harness.records.provenance import git_info, machine_info, package_versions
from cubebench.harness.records.schema import SCHEMA_VERSION, Record, RecordError
from cubebench.harness.records.store import RunStore
from cubebench.harness.registry import describe_settings
from cubebench.harness.solver import (
    ArgumentError,
    Budget,
    SettingsError,
    SolverLoadError,
    check_limits,
)
from cubebench.harness.suites.model import Suite, SuiteError
from cubebench.harness.suites.registry import load_suite
from cubebench.harness.verify import judge
from cubebench.harness.workers import Task


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
    executor: str = "local"  # or "ray" (cubebench.harness.executors)
    address: str | None = None  # the Ray cluster's: "auto", "HOST:PORT"; none starts one

    def __post_init__(self) -> None:
        if self.executor not in EXECUTORS:
            raise ArgumentError(f"executor {self.executor!r}: choose one of {', '.join(EXECUTORS)}")
        check_limits(
            self,
            positive=("time_limit", "memory_limit_gb"),
            counts=("limit", "workers", "max_nodes", "max_model_calls", "max_length"),
            flags=True,
        )

    @property
    def budget(self) -> Budget:
        return Budget(self.time_limit, self.max_nodes, self.max_model_calls, self.max_length)

    def job(self, spec: SolverSpec) -> Job:
        return Job(
            spec.key,
            spec.name,
            spec.settings,
            self.budget,
            self.time_limit,
            self.memory_limit_gb,
            self.workers,
        )

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
    executor = make_executor(config.executor, config.address)
    try:  # replicas load before anything is written
        started = executor.preload([config.job(s) for s in config.solvers])
    except BaseException:
        executor.close()
        raise
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
        executor.stop(started)
        executor.close()
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
    return _execute(store, config, suites, manifest, show_progress, started, executor)


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
    executor = make_executor(config.executor, config.address)
    try:
        started = executor.preload([config.job(s) for s in todo])
        # each part of a run names the code it ran with; the records do not say which part
        # wrote them, so a resume under a different checkpoint is refused
        for name, worker in started.items():
            try:
                _check_pinned(manifest["solvers"][name], worker.meta, name, store)
            except RecordError:
                executor.stop(started)
                raise
    except BaseException:
        executor.close()
        raise
    manifest.setdefault("resumed", []).append(
        {"at": datetime.now(UTC).isoformat(), "git": git_info(), "packages": package_versions()}
    )
    store.write_manifest(manifest)
    return _execute(store, config, suites, manifest, show_progress, started, executor)


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
    started: dict[str, Any],
    executor: Executor,
) -> RunStore:
    done = {r.key: r for r in store.read_records()}
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
                if not tasks:
                    if first is not None:
                        executor.stop({spec.key: first})
                    continue
                sink = _RecordSink(spec.key, suites, config.budget, store, manifest, progress)
                try:
                    executor.run(config.job(spec), tasks, sink, first)
                except SolverLoadError as exc:
                    # it loaded at the start but not in a later replica (its checkpoint
                    # changed during the run, say): the run stops; what it finished is kept
                    raise SolverLoadError(
                        f"{exc}; the finished records are kept (bench run --resume {store.folder})"
                    ) from None
                _write_nodes(manifest, executor)
                store.write_manifest(manifest)
    except KeyboardInterrupt:
        manifest["interrupted"] = datetime.now(UTC).isoformat()
        _write_nodes(manifest, executor)
        store.write_manifest(manifest)
        raise RunInterruptedError(store) from None
    finally:
        executor.stop(started)
        executor.close()
        store.close()
    manifest["finished"] = datetime.now(UTC).isoformat()
    manifest.pop("interrupted", None)
    store.write_manifest(manifest)
    return store


def _write_nodes(manifest: dict, executor: Executor) -> None:
    """Every machine a cluster run used, beside the driver's own ``machine``."""
    nodes = executor.nodes()
    if nodes:
        manifest.setdefault("nodes", {}).update(nodes)


class _RecordSink:
    """Verifies what an executor reports for one solver entry and appends the record."""

    def __init__(
        self,
        key: str,
        suites: list[Suite],
        budget: Budget,
        store: RunStore,
        manifest: dict,
        progress: RunProgress,
    ) -> None:
        self.key, self.suites, self.budget = key, suites, budget
        self.store, self.manifest, self.progress = store, manifest, progress
        self.optimal = {
            (s.name, i.id): (i.optimal_htm, i.optimal_qtm) for s in suites for i in s.instances
        }
        self.recorded: set[tuple[str, str, int]] = set()

    def ready(self, meta: dict[str, Any]) -> None:
        """Pin the solver's checkpoint in the manifest as soon as a replica has loaded it."""
        known = self.manifest["solvers"][self.key]
        _check_pinned(known, meta, self.key, self.store)
        if known.items() >= meta.items():
            return
        known.update(meta)
        self.store.write_manifest(self.manifest)

    def result(self, task: Task, message: tuple) -> None:
        self._finish(task, _verdict(message, task, self.optimal, self.budget))

    def failure(self, task: Task, status: str, error: str, wall: float | None) -> None:
        self._finish(task, _failure(task, status, error, wall))

    def _finish(self, task: Task, record: Record) -> None:
        if task.key in self.recorded:  # a late duplicate from a replaced replica
            return
        self.recorded.add(task.key)
        self.store.append(record)
        self.progress.update(record)


def _tasks(solver: str, suites: list[Suite], limit: int | None, done: dict) -> Iterator[Task]:
    for suite in suites:
        for inst in suite.instances[: limit or len(suite)]:
            if (solver, suite.name, inst.id) not in done:
                yield Task((solver, suite.name, inst.id), inst.facelets)


def _verdict(message: tuple, task: Task, optimal: dict, budget: Budget) -> Record:
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
