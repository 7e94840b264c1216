"""Exact optima for a registered suite, proved by the ``optimal`` solver and kept as they come.

Annotation is long work (minutes a deep cube), so it is resumable: each instance's result is
written into the suite the moment it is proved, under the registry's lock, and a run started
again skips every instance that already has an exact optimum in that metric. A search that
runs out of time still proves something: every shorter length was searched, so the instance
keeps ``optimal_<metric>_min`` (the largest bound proved so far) until a longer attempt
settles it. An annotation takes the instances in the order of the lower bound they carry,
lowest first, so it tries those again only after the ones never tried.

The cubes do not change, so a suite's states hash does not either: runs made before an
annotation compare with runs made after (reports pin suites by their states).
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
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
from ..registry import make_solver, prepare_solver
from ..solver import Budget
from .catalog import SuiteInfo, suite_info, update_suite
from .model import Instance, SuiteError, check_optima, read_suite_file

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
    tables: str = "large",
    on_result: Callable[[Outcome], None] | None = None,
    solver: Any = None,
    workers: int = 1,
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

    Returns:
        One outcome per instance attempted (those already exact are skipped).

    Raises:
        SuiteError: an unknown suite, a suite given by path, or a bad metric.
    """
    if metric not in COUNT:
        raise SuiteError(f"--metric {metric!r}: use htm, qtm or both")
    info = annotatable(name)
    suite = read_suite_file(info.path, info.name, info.sha256, info.meta)
    todo = [i for i in suite.instances[:limit] if getattr(i, f"optimal_{metric}") is None]
    # lowest known lower bound first: one that a search has already run out of time on
    # carries the bound it proved, and a retry at the same budget repeats the same search,
    # so it waits until the cubes never tried (which carry at most the oracle's) are done
    todo.sort(key=lambda i: getattr(i, f"optimal_{metric}_min") or 0)
    if not todo:
        return []
    if workers > 1 and solver is None:
        # the tables are built here once, with their progress shown, before the workers read
        # them: each worker building its own would race for memory and time
        prepare_solver("optimal", {"metric": metric, "tables": tables})
        results = _in_processes(todo, metric, time_limit_s, tables, workers)
    else:
        solver = solver or make_solver("optimal", {"metric": metric, "tables": tables})
        results = (_prove(solver, instance, metric, time_limit_s) for instance in todo)
    outcomes = []
    for outcome in results:
        _record(name, outcome)  # this process alone writes the suite
        outcomes.append(outcome)
        if on_result is not None:
            on_result(outcome)
    return outcomes


_WORKER_SOLVER: list[Any] = []


def _load_worker(metric: str, tables: str) -> None:
    _WORKER_SOLVER.append(make_solver("optimal", {"metric": metric, "tables": tables}))


def _prove_in_worker(instance: Instance, metric: str, time_limit_s: float) -> Outcome:
    return _prove(_WORKER_SOLVER[0], instance, metric, time_limit_s)


def _in_processes(
    todo: list[Instance], metric: str, time_limit_s: float, tables: str, workers: int
) -> Iterator[Outcome]:
    """Outcomes as worker processes prove them (each loads its own solver once; fresh
    processes, as a compiled search's threads do not survive a fork)."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_load_worker, initargs=(metric, tables)
    ) as pool:
        futures = [pool.submit(_prove_in_worker, i, metric, time_limit_s) for i in todo]
        for future in as_completed(futures):
            yield future.result()


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


def _record(name: str, outcome: Outcome) -> None:
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
        meta[f"{key}_seconds"] = round(spent, 1)
        return instances, meta

    update_suite(name, change)
