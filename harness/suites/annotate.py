"""Exact optima for a registered suite, proved by the ``optimal`` solver and kept as they come.

Annotation is long work (minutes a deep cube), so it is resumable: each instance's result is
written into the suite the moment it is proved, under the registry's lock, and a run started
again skips every instance that already has an exact optimum in that metric. A search that
runs out of time still proves something: every shorter length was searched, so the instance
keeps ``optimal_<metric>_min`` (the largest bound proved so far) until a longer attempt
settles it. An annotation takes the instances in the order of the lower bound they carry,
lowest first, so it tries those again only after the ones never tried.

The cubes do not change, so a suite's states hash does not either: runs made before an
annotation compare with runs made after (reports pin suites by their states). A built-in
suite's results go to the user's overlay (:mod:`.overlay`), never into the installed
package; two annotations of one suite and metric at once share its instances
(:mod:`.claims`), each proving what the other has not taken.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..cube import (
    NotationError,
    apply_sequence,
    facelets_to_state,
    invert_sequence,
    is_solved,
    length_htm,
    length_qtm,
    parse_moves,
)
from ..interrupts import die_with_parent, leave_signals_to_parent
from ..registry import make_solver, prepare_solver
from ..solver import Budget
from .catalog import SuiteInfo, load_suite, suite_info, update_suite, user_registry_lock
from .claims import live_claims, write_claims
from .model import Instance, SuiteError, check_optima
from .overlay import overlay_path

COUNT = {"htm": length_htm, "qtm": length_qtm}


@dataclass(frozen=True)
class Outcome:
    """What one attempt on one instance proved."""

    instance: int
    metric: str
    optimum: int | None  # exact, or None when the budget ran out first
    lower_bound: int
    seconds: float


def annotate_suite(
    name: str,
    metric: str,
    *,
    limit: int | None = None,
    time_limit_s: float = 600.0,
    tables: str = "dense",
    on_result: Callable[[Outcome], None] | None = None,
    solver: Any = None,
    workers: int = 1,
    shipped: bool = False,
) -> list[Outcome]:
    """Prove the optimum of the first ``limit`` instances of suite ``name`` in ``metric``.

    Args:
        name: a registered suite (built in, or imported with ``bench suites import``); a
            file given by path is the user's and is never written to.
        metric: ``"htm"`` or ``"qtm"``.
        limit: how many instances from the start of the suite (all when None).
        time_limit_s: the search's budget for one instance.
        tables: the ``optimal`` solver's ``tables`` setting.
        on_result: called after each instance is written.
        solver: an already loaded ``optimal`` solver for ``metric`` (tests pass one).
        workers: processes proving instances at once (each holds its own tables).
        shipped: a built-in suite's results go into its shipped file (the developers'
            ``--write``) instead of the user's overlay.

    Returns:
        One outcome per instance attempted: those already exact are skipped, and so are
        those another annotation of the suite is proving at the same time (:mod:`.claims`).

    Raises:
        SuiteError: an unknown suite, a suite given by path, or a bad metric.
    """
    if metric not in COUNT:
        raise SuiteError(f"--metric {metric!r}: use htm, qtm or both")
    annotatable(name)
    suite = load_suite(name)
    todo = [i for i in suite.instances[:limit] if getattr(i, f"optimal_{metric}") is None]
    # lowest known lower bound first: one that a search has already run out of time on
    # carries the bound it proved, and a retry at the same budget repeats the same search,
    # so it waits until the cubes never tried (which carry at most the oracle's) are done
    todo.sort(key=lambda i: getattr(i, f"optimal_{metric}_min") or 0)
    if not todo:
        return []
    take = _Taker(name, metric, [i.id for i in todo])
    if workers > 1 and solver is None:
        # the tables are built here once, with their progress shown, before the workers read
        # them: each worker building its own would race for memory and time
        prepare_solver("optimal", {"metric": metric, "tables": tables})
        results = _in_processes(take, metric, time_limit_s, tables, workers)
    else:
        solver = solver or make_solver("optimal", {"metric": metric, "tables": tables})
        results = _one_by_one(take, solver, metric, time_limit_s)
    outcomes = []
    try:
        for outcome in results:
            _record(name, outcome, shipped)  # this process alone writes the suite
            take.release(outcome.instance)
            outcomes.append(outcome)
            if on_result is not None:
                on_result(outcome)
    finally:
        take.release_all()
    return outcomes


class _Taker:
    """The next instance to prove: in order, not exact now, not claimed by a live process,
    not tried already by this one; claimed for this process as it is taken."""

    def __init__(self, name: str, metric: str, order: list[int]) -> None:
        self.name, self.metric, self.order = name, metric, order
        self.tried: set[int] = set()
        self._suite: tuple[tuple, dict[int, Instance]] | None = None

    def _current(self) -> dict[int, Instance]:
        """The suite as it is now, read again only when a file behind it changed."""
        info = suite_info(self.name)
        overlay = overlay_path(self.name)
        key = (info.sha256, overlay.stat().st_mtime_ns if overlay.exists() else None)
        if self._suite is None or self._suite[0] != key:
            self._suite = (key, {i.id: i for i in load_suite(self.name).instances})
        return self._suite[1]

    def __call__(self) -> Instance | None:
        with user_registry_lock():
            current = self._current()
            claims = live_claims(self.name, self.metric)
            for k in self.order:
                instance = current[k]
                exact = getattr(instance, f"optimal_{self.metric}") is not None
                if exact or k in claims or k in self.tried:
                    continue
                self.tried.add(k)
                write_claims(self.name, self.metric, {**claims, k: os.getpid()})
                return instance
        return None

    def release(self, instance: int) -> None:
        with user_registry_lock():
            claims = live_claims(self.name, self.metric)
            if claims.pop(instance, None) is not None:
                write_claims(self.name, self.metric, claims)

    def release_all(self) -> None:
        with user_registry_lock():
            claims = live_claims(self.name, self.metric)
            kept = {k: v for k, v in claims.items() if v != os.getpid()}
            if kept != claims:
                write_claims(self.name, self.metric, kept)


def _one_by_one(take: _Taker, solver: Any, metric: str, time_limit_s: float) -> Iterator[Outcome]:
    while (instance := take()) is not None:
        yield _prove(solver, instance, metric, time_limit_s)


_WORKER_SOLVER: list[Any] = []


def _load_worker(metric: str, tables: str) -> None:
    leave_signals_to_parent()
    die_with_parent()
    _WORKER_SOLVER.append(make_solver("optimal", {"metric": metric, "tables": tables}))


def _prove_in_worker(instance: Instance, metric: str, time_limit_s: float) -> Outcome:
    return _prove(_WORKER_SOLVER[0], instance, metric, time_limit_s)


def _in_processes(
    take: _Taker, metric: str, time_limit_s: float, tables: str, workers: int
) -> Iterator[Outcome]:
    """Outcomes as worker processes prove them, an instance taken as a worker comes free
    (each loads its own solver once; fresh processes, as a compiled search's threads do not
    survive a fork). The workers die with this process however it ends: killed at once
    when it is interrupted or fails, and by the kernel when it is killed."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_load_worker, initargs=(metric, tables)
    )
    try:
        running = set()
        for _ in range(workers):
            if (instance := take()) is not None:
                running.add(pool.submit(_prove_in_worker, instance, metric, time_limit_s))
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()  # recorded before the next is taken
                if (instance := take()) is not None:
                    running.add(pool.submit(_prove_in_worker, instance, metric, time_limit_s))
    except BaseException:  # Ctrl-C, SIGTERM (Terminated), a failure: no search runs on
        for child in multiprocessing.active_children():
            child.kill()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def annotatable(name: str) -> SuiteInfo:
    """The registry entry of a suite that may be annotated.

    Raises:
        SuiteError: a file given by path (the user's, never rewritten) or an unknown name.
    """
    if name.endswith(".jsonl"):
        raise SuiteError(
            f"suite {name!r}: annotate a registered suite; import the file first "
            "(bench suites import text FILE --name NAME), so your file is never rewritten"
        )
    return suite_info(name)


def _prove(solver: Any, instance: Instance, metric: str, time_limit_s: float) -> Outcome:
    state = facelets_to_state(instance.facelets)
    known = _unscramble(instance, state)
    # a bound an earlier try proved is not searched again: a retry goes on from there
    proved = getattr(instance, f"optimal_{metric}_min") or 0
    start = time.monotonic()
    budget = Budget(wall_seconds=time_limit_s)
    attempt = solver.solve(state, budget, known=known, proved=proved)
    seconds = time.monotonic() - start
    info = attempt.info
    if attempt.moves or is_solved(state):
        moves = list(attempt.moves)
        if not is_solved(apply_sequence(state, moves)):
            raise RuntimeError(f"instance {instance.id}: the optimal solver's answer is wrong")
        length = COUNT[metric](moves)
        if not info.get("optimal") or info.get(f"optimal_{metric}", length) != length:
            raise RuntimeError(f"instance {instance.id}: answer without a proof of optimality")
        return Outcome(instance.id, metric, length, length, seconds)
    bound = int(info.get(f"optimal_{metric}_min", 0))
    return Outcome(instance.id, metric, None, bound, seconds)


def _unscramble(instance: Instance, state: np.ndarray) -> list[int] | None:
    """The scramble's inverse, when the instance has a scramble and it solves the cube: an
    upper bound, so the solver need only show that nothing shorter exists."""
    if not instance.scramble:
        return None
    try:
        moves = invert_sequence(parse_moves(instance.scramble))
    except NotationError:
        return None
    return moves if is_solved(apply_sequence(state, moves)) else None


def _record(name: str, outcome: Outcome, shipped: bool = False) -> None:
    """Merge one outcome into the suite (another annotation, of the other metric say, may be
    writing the same suite: the update reads the file as it is under the lock)."""
    key = f"optimal_{outcome.metric}"

    def change(instances: list[Instance], meta: dict) -> tuple[list[Instance], dict]:
        at = next(k for k, i in enumerate(instances) if i.id == outcome.instance)
        old = instances[at]
        if outcome.optimum is not None:
            known = getattr(old, f"{key}_min")
            if known is not None and outcome.optimum < known:
                raise RuntimeError(
                    f"suite {name} instance {old.id}: proved {key}={outcome.optimum} below "
                    f"its recorded lower bound {known}; one of the two is wrong"
                )
            changes: dict[str, Any] = {key: outcome.optimum, f"{key}_min": None}
        else:
            known = getattr(old, f"{key}_min") or 0
            changes = {f"{key}_min": max(known, outcome.lower_bound)}
        new = replace(old, **changes)
        check_optima(new, f"suite {name} instance {old.id}")
        instances[at] = new
        spent = meta.get(f"{key}_seconds", 0.0) + outcome.seconds
        meta[f"{key}_proved"] = sum(getattr(i, key) is not None for i in instances)
        meta[f"{key}_seconds"] = round(spent, 3)  # many cubes take milliseconds each
        return instances, meta

    update_suite(name, change, shipped=shipped)
