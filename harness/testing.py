"""A conformance kit any adapter author can run: ``check_solver(MySolver(...))``.

Each check says what a solver must do for the harness's numbers to mean anything. The kit
judges answers the way the runner does (replaying moves on the engine), so passing it means
the solver will not lose instances to ``illegal`` or ``wrong`` for reasons of form.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from cubebench.harness.cube import (
    SOLVED,
    apply_move,
    apply_sequence,
    canonical_scrambles,
    random_states,
)
from cubebench.harness.records.schema import Record
from cubebench.harness.solver import Budget, Solver, kill_after
from cubebench.harness.verify import judge, to_raw


class ConformanceError(AssertionError):
    """A solver that breaks the interface contract; the message lists every failed check."""


@dataclass
class ConformanceReport:
    solver: str
    passed: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def raise_if_failed(self) -> None:
        if self.failures:
            lines = "\n  - ".join(self.failures)
            raise ConformanceError(f"solver {self.solver!r} failed conformance:\n  - {lines}")


def _attempt(solver: Solver, state: np.ndarray, budget: Budget) -> tuple[Record, float]:
    frozen = np.array(state, dtype=np.uint8)
    frozen.setflags(write=False)
    start = time.perf_counter()
    try:
        attempt = solver.solve(frozen, budget)
        wall = time.perf_counter() - start
        raw = to_raw(attempt, wall)
    except Exception as exc:  # the kit reports any failure as a finding
        wall = time.perf_counter() - start
        return Record(
            solver.name,
            "conformance",
            0,
            "error",
            error=f"{type(exc).__name__}: {exc}",
            wall_s=wall,
        ), wall
    record = judge(frozen, raw, budget, solver=solver.name, suite="conformance", instance=0)
    return record, wall


def check_solver(
    solver: Solver, *, time_limit: float = 30.0, seed: int = 0, strict: bool = True
) -> ConformanceReport:
    """Run every check; with ``strict`` raise :class:`ConformanceError` on any failure.

    Checks: the solved cube gets no moves; every depth-1 cube is solved; moves are legal and
    verified by replay (never ``illegal``/``wrong``); a length budget and a short wall budget
    are respected; answers are the same when asked twice (determinism under the seed).
    """
    report = ConformanceReport(getattr(solver, "name", type(solver).__name__))
    budget = Budget(wall_seconds=time_limit)

    def check(name: str, ok: bool, why: str) -> None:
        (report.passed if ok else report.failures).append(name if ok else f"{name}: {why}")

    record, _ = _attempt(solver, SOLVED, budget)
    check(
        "solved cube gives no moves",
        record.status == "solved" and not record.moves,
        f"got status {record.status} with moves {record.moves!r} {record.error or ''}",
    )

    bad = []
    for move in range(18):
        record, _ = _attempt(solver, apply_move(SOLVED, move), budget)
        if record.status != "solved":
            bad.append(f"{move}: {record.status} {record.error or record.moves!r}")
    check("every depth-1 cube is solved", not bad, "; ".join(bad[:3]))

    rng = np.random.default_rng(seed)
    cubes = [apply_sequence(SOLVED, s.tolist()) for s in canonical_scrambles(3, 4, rng)]
    cubes.append(random_states(1, rng)[:, 0])
    forms = [
        (i, r.status, r.error)
        for i, r in ((i, _attempt(solver, c, budget)[0]) for i, c in enumerate(cubes))
        if r.status in ("illegal", "wrong", "error")
    ]
    check("answers are legal moves that verify (or an honest give-up)", not forms, str(forms[:2]))

    short = Budget(wall_seconds=time_limit, max_length=8)
    record, _ = _attempt(solver, cubes[-1], short)
    check(
        "a length budget is respected",
        record.length_htm is None or record.length_htm <= 8,
        f"returned {record.length_htm} moves under max_length=8",
    )

    # a short budget on a cube no solver finishes in it; allowed: until the runner would
    # kill the solver (6x the budget, so a slow CPU passes if the solver stops in time)
    quick = Budget(wall_seconds=0.2)
    _, wall = _attempt(solver, cubes[-1], quick)
    limit = kill_after(quick.wall_seconds)
    check(
        f"a wall budget of 0.2 s is respected (stopped before the runner's kill at {limit:.2f} s)",
        wall <= limit,
        f"took {wall:.2f} s",
    )

    first, _ = _attempt(solver, cubes[0], budget)
    second, _ = _attempt(solver, cubes[0], budget)
    check(
        "answers are deterministic",
        first.moves == second.moves,
        f"{first.moves!r} then {second.moves!r}",
    )
    misplaced = hasattr(type(solver), "OPTION_HELP")  # the settings class is not in its MRO
    check(
        "setting help is declared on the settings class",
        not misplaced,
        "OPTION_HELP is on the solver class, where nothing reads it; move it to its Settings",
    )
    metric = getattr(solver, "metric", getattr(getattr(solver, "settings", None), "metric", "htm"))
    check(
        "the metric it searches is htm or qtm",
        metric in ("htm", "qtm"),
        f"metric {metric!r}: records judge a solver against the optimum of its metric",
    )
    if strict:
        report.raise_if_failed()
    return report
