"""Run solvers over suites: workers, outside limits, verification, resumable records.

The Python API behind ``bench run``. One :class:`RunConfig` describes a run; :func:`run`
executes it into a run folder and :func:`resume` finishes an interrupted one. Solvers run
one after another; each gets ``workers`` processes that load it once.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Container, Iterator
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .executors import Executor, make_executor
from .executors.messages import Task, TaskKey
from .interrupts import exit_status, terminate_as_interrupt
from .naming import check_path_name
from .paths import runs_dir
from .progress import RunProgress, plan_lines
from .records.manifest import Manifest, SolverPin, SuitePin
from .records.provenance import git_info, machine_info, package_versions
from .records.schema import RecordError
from .records.store import MANIFEST, RunStore
from .registry import Resolved, solver_origin
from .runconfig import RunConfig, SolverSpec
from .runfolder import claim_automatic_folder, claim_new_folder, remove_empty
from .settings import SettingsError
from .sink import RecordSink, check_pinned
from .solver import ArgumentError, SolverLoadError
from .suites.catalog import load_suite
from .suites.model import Suite, SuiteError

__all__ = ["NothingToDoError", "RunConfig", "RunInterruptedError", "SolverSpec", "resume", "run"]


class RunInterruptedError(Exception):
    """Ctrl-C, SIGTERM or SIGHUP: the run stopped cleanly and can be resumed.

    ``store`` is None when it stopped before writing anything (its folder is gone).
    """

    def __init__(self, store: RunStore | None, signum: int = signal.SIGINT) -> None:
        message = (
            f"interrupted; resume with: bench run --resume {store.folder}"
            if store is not None
            else "interrupted before the run started; nothing was written"
        )
        super().__init__(message)
        self.store, self.signum = store, signum


def run(
    config: RunConfig,
    *,
    show_progress: bool = True,
    command: list[str] | None = None,
    run_id: str | None = None,
) -> RunStore:
    """Start a new run; returns its store once every instance has a record.

    The run folder is created and locked before any solver loads, so a second run with the
    same id is refused at once; nothing is left behind when loading fails.
    """
    if not config.out:  # the user's runs folder, written down: a resume finds it there
        config = replace(config, out=str(runs_dir()))
    suites = _load_suites(config)
    keys = [s.key for s in config.solvers]
    if len(set(keys)) != len(keys):
        raise SettingsError(f"solvers {', '.join(keys)}: each entry needs its own label")
    entries = config.resolved()  # each solver looked up, its settings parsed: once
    check_puzzles(config, entries, suites)
    stamp = datetime.now(UTC)
    if run_id is not None:
        check_path_name(run_id, "--run-id")
        store, made = claim_new_folder(Path(config.out) / run_id)
    else:
        store, made = claim_automatic_folder(Path(config.out), stamp, config)
        run_id = store.folder.name
    log = str(store.folder / WORKER_LOG)
    with terminate_as_interrupt():
        try:
            with contextlib.ExitStack() as undo:  # what a failure before the first record undoes
                undo.callback(remove_empty, made)  # last: only folders left empty go
                undo.callback(_drop_log_of_unstarted, store)  # the one-line error says why
                undo.callback(store.close)
                executor = make_executor(config.executor, config.address)
                undo.callback(executor.close)
                # workers load before anything is written
                started = executor.preload(
                    [config.job(s, entries[s.key], log) for s in config.solvers]
                )
                undo.callback(executor.stop, started)
                store.write_manifest(
                    _first_manifest(config, run_id, command, suites, entries, started, stamp)
                )
                undo.pop_all()  # the run has begun: _execute ends what it holds
        except KeyboardInterrupt as exc:  # a signal before the first record
            written = (store.folder / MANIFEST).exists()
            raise RunInterruptedError(store if written else None, exit_status(exc) - 128) from None
        return _execute(store, config, entries, suites, show_progress, started, executor)


def _drop_log_of_unstarted(store: RunStore) -> None:
    if not (store.folder / MANIFEST).exists():
        (store.folder / WORKER_LOG).unlink(missing_ok=True)


def _first_manifest(
    config: RunConfig,
    run_id: str,
    command: list[str] | None,
    suites: list[Suite],
    entries: dict[str, Resolved],
    started: dict[str, Any],
    stamp: datetime,
) -> Manifest:
    """What the run folder says once every worker has loaded, before the first record."""
    return Manifest(
        run_id=run_id,
        command=tuple(command or sys.argv),
        config=asdict(config),
        suites={s.name: SuitePin(s.sha256, s.total, s.meta, s.states_sha256) for s in suites},
        solvers={
            key: SolverPin(
                entry.name,
                entry.settings_dict(),
                solver_origin(entry.asked_as),
                _loaded(started[key]),
            )
            for key, entry in entries.items()
        },
        packages=package_versions(),
        git=git_info(),
        machine=machine_info(),
        seed=config.seed,
        started=stamp.isoformat(),
    )


WORKER_LOG = "workers.log"
"""What the run's solver processes print, each process's first megabyte (the terminal shows
the run's progress only)."""


def _loaded(handle: Any) -> dict[str, Any]:
    """What a loaded worker pinned (its load report), as the manifest holds it."""
    report = getattr(handle, "report", None)
    return report.pinned() if report is not None else {}


class NothingToDoError(Exception):
    """A resume of a run that is finished and whole: nothing was loaded or written."""

    def __init__(self, store: RunStore) -> None:
        done = "is finished, every cube has its record: nothing to do"
        super().__init__(f"run {store.folder} {done}")
        self.store = store


def resume(
    folder: Path,
    *,
    show_progress: bool = True,
    limit: int | None = None,
    workers: int | None = None,
) -> RunStore:
    """Continue an interrupted run: finished instances are kept and not redone.

    ``limit``: more instances of each suite than the run had (a resume may extend a run;
    it may not shrink one or change anything else). ``workers``: how many cubes run at once
    from here on. It changes no cube's budget or settings, only how many share the machine,
    so a long run can go on beside other work; every resumed part records its workers and
    its machine, since a run that spans sittings may span CPUs too.
    """
    store = RunStore(folder)
    store.read_manifest()  # a run folder, before a lock file is made in it
    store.lock()
    try:
        with terminate_as_interrupt():
            return _resume_locked(store, show_progress, limit, workers)
    except KeyboardInterrupt as exc:  # before the run went on: nothing new was written
        store.close()
        raise RunInterruptedError(store, exit_status(exc) - 128) from None
    except BaseException:
        store.close()
        raise


def _resume_locked(
    store: RunStore, show_progress: bool, limit: int | None, workers: int | None
) -> RunStore:
    manifest = store.read_manifest()
    try:
        config = RunConfig.from_dict(dict(manifest.config))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"{store.folder}/manifest.json has no usable config: {exc}") from None
    if limit is not None:
        config = _extended(config, limit, store)
    if workers is not None:
        config = replace(config, workers=workers)  # checked by RunConfig's own limits
    suites = _load_suites(config)
    for suite in suites:
        known = manifest.suites.get(suite.name)
        if known is None:
            raise RecordError(
                f"{store.folder}/manifest.json runs suite {suite.name} but does not pin it"
            )
        # the cubes are what must not change; optima added to the suite since are welcome
        pinned, now = (
            (known.states, suite.states_sha256)
            if known.states is not None
            else (known.sha256, suite.sha256)
        )
        if now != pinned:
            raise SuiteError(
                f"suite {suite.name} changed since the run started "
                f"({pinned[:12]}… -> {now[:12]}…); start a new run"
            )
    done = {r.key for r in store.read_records()}
    finished = manifest.finished and manifest.interrupted is None
    # every suite for every entry first, which needs no solver loaded: a finished run of
    # one puzzle ends here, without importing a solver
    if finished and not any(next(_tasks(s, suites, config, done), None) for s in config.solvers):
        store.close()  # a finished run: nothing loads, nothing is written
        raise NothingToDoError(store)
    entries = config.resolved()
    todo = [
        s
        for s in config.solvers
        if next(_tasks(s, _own_suites(entries[s.key].puzzles, suites), config, done), None)
    ]
    if not todo and finished:
        store.close()
        raise NothingToDoError(store)
    log = str(store.folder / WORKER_LOG)
    with contextlib.ExitStack() as undo:  # what a failure before the first record undoes
        executor = make_executor(config.executor, config.address)
        undo.callback(executor.close)
        started = executor.preload([config.job(s, entries[s.key], log) for s in todo])
        undo.callback(executor.stop, started)
        # each part of a run names the code it ran with; the records do not say which part
        # wrote them, so a resume under a different checkpoint is refused
        for name, worker in started.items():
            check_pinned(manifest.solvers[name], _loaded(worker), name, store)
        undo.pop_all()  # the resumed run holds them now
    part = {
        "at": datetime.now(UTC).isoformat(),
        "git": git_info(),
        "packages": package_versions(),
        "workers": config.workers,
        "machine": machine_info(),
    }
    store.write_manifest(
        replace(manifest, config=asdict(config), resumed=(*manifest.resumed, part))
    )
    return _execute(store, config, entries, suites, show_progress, started, executor)


def _extended(config: RunConfig, limit: int, store: RunStore) -> RunConfig:
    if limit < 1:
        raise ArgumentError(f"--limit {limit}: give a positive number of instances")
    if config.limit is None or limit < config.limit:
        had = "every instance" if config.limit is None else f"the first {config.limit}"
        raise ArgumentError(
            f"--limit {limit}: {store.folder} already runs {had} of each suite; "
            "a resume can only extend a run"
        )
    return replace(config, limit=limit)


def _load_suites(config: RunConfig) -> list[Suite]:
    if not config.solvers or not config.suites:
        raise SuiteError("a run needs at least one solver and one suite")
    suites = [load_suite(name, config.limit_for(None, name)) for name in config.suites]
    for suite in suites:
        asked = config.suite_limits.get(suite.name)
        if asked is not None and asked > suite.total:
            raise ArgumentError(
                f"--suite {suite.name}:{asked}: the suite holds {suite.total} cubes; give at "
                f"most that many, or the suite's name alone for all of them"
            )
    return suites


def check_puzzles(config: RunConfig, entries: dict[str, Resolved], suites: list[Suite]) -> None:
    """Refuse, before anything starts, an entry with no suite of a puzzle it solves, or a
    suite no entry solves. Each entry then runs the suites of its puzzles only, so one run
    (the default benchmark) holds 3×3×3, 2×2×2 and 4×4×4 suites beside each other.

    Raises:
        ArgumentError: naming the entry or the suite and the puzzles.
    """
    for spec in config.solvers:
        solves = entries[spec.key].puzzles
        if suites and not any(suite.puzzle in solves for suite in suites):
            suite = suites[0]
            raise ArgumentError(
                f"solver {spec.key} solves {', '.join(solves)}; suite {suite.name} is "
                f"{suite.puzzle}: give it a {suite.puzzle} solver or a {solves[0]} suite"
            )
    for suite in suites:
        if not any(suite.puzzle in entries[spec.key].puzzles for spec in config.solvers):
            keys = ", ".join(spec.key for spec in config.solvers)
            raise ArgumentError(
                f"suite {suite.name} is {suite.puzzle}, and no entry of the run ({keys}) "
                f"solves {suite.puzzle}: add a {suite.puzzle} solver or drop the suite"
            )


def _own_suites(puzzles: tuple[str, ...], suites: list[Suite]) -> list[Suite]:
    """The suites an entry of ``puzzles`` runs: those of its puzzles."""
    return [suite for suite in suites if suite.puzzle in puzzles]


def _execute(
    store: RunStore,
    config: RunConfig,
    entries: dict[str, Resolved],
    suites: list[Suite],
    show_progress: bool,
    started: dict[str, Any],
    executor: Executor,
) -> RunStore:
    done = {r.key: r for r in store.read_records()}
    totals = {
        (sp.key, s.name): min(len(s), config.limit_for(sp, s.name) or len(s))
        for sp in config.solvers
        for s in _own_suites(entries[sp.key].puzzles, suites)
    }
    progress = RunProgress(totals, done.values(), enabled=show_progress)
    progress.announce(plan_lines(store, config, totals, len(done)))
    try:
        with progress:
            for spec in config.solvers:
                own = _own_suites(entries[spec.key].puzzles, suites)
                tasks = list(_tasks(spec, own, config, done))
                first = started.pop(spec.key, None)
                if not tasks:
                    if first is not None:
                        executor.stop({spec.key: first})
                    continue
                progress.start_entry(spec.key)
                sink = RecordSink(spec.key, suites, config.budget, store, progress, executor.nodes)
                try:
                    job = config.job(spec, entries[spec.key], str(store.folder / WORKER_LOG))
                    executor.run(job, tasks, sink, first)
                except SolverLoadError as exc:
                    # it loaded at the start but not in a later worker (its checkpoint
                    # changed during the run, say): the run stops; what it finished is kept
                    raise SolverLoadError(
                        f"{exc}; the finished records are kept (bench run --resume {store.folder})"
                    ) from None
                store.write_manifest(store.manifest.with_nodes(executor.nodes()))
    except KeyboardInterrupt as exc:
        stopped = datetime.now(UTC).isoformat()
        store.write_manifest(
            replace(store.manifest, interrupted=stopped).with_nodes(executor.nodes())
        )
        raise RunInterruptedError(store, exit_status(exc) - 128) from None
    finally:
        executor.stop(started)
        executor.close()
        store.close()
    finished = datetime.now(UTC).isoformat()
    store.write_manifest(replace(store.manifest, finished=finished, interrupted=None))
    return store


def _tasks(
    spec: SolverSpec, suites: list[Suite], config: RunConfig, done: Container[tuple[str, str, int]]
) -> Iterator[Task]:
    for suite in suites:
        for inst in suite.instances[: config.limit_for(spec, suite.name) or len(suite)]:
            if (spec.key, suite.name, inst.id) not in done:
                yield Task(TaskKey(spec.key, suite.name, inst.id), inst.facelets, suite.puzzle)
