"""A conformance kit any adapter author can run: ``check_solver(MySolver(...))``.

Each check says what a solver must do for the harness's numbers to mean anything. The kit
judges answers the way the runner does (replaying moves on the engine), so passing it means
the solver will not lose instances to ``illegal`` or ``wrong`` for reasons of form.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .cube import (
    SOLVED,
    apply_move,
    apply_sequence,
    canonical_scrambles,
    random_states,
)
from .records.schema import Record
from .solver import Budget, Solver, kill_after, metric_of
from .verify import judge, to_raw


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


DETERMINISM_ASKS = 11
"""How often the kit asks for one cube's answer; see :func:`check_solver`."""


def check_solver(
    solver: Solver,
    *,
    time_limit: float = 30.0,
    seed: int = 0,
    strict: bool = True,
    wall_budget: float = 0.2,
) -> ConformanceReport:
    """Run every check; with ``strict`` raise :class:`ConformanceError` on any failure.

    Checks: the solved cube gets no moves; every depth-1 cube is solved; moves are legal and
    verified by replay (never ``illegal``/``wrong``); a length budget below the length of
    an answer it gave and a short wall budget (``wall_budget`` seconds) are respected, as
    the runner judges them (``verify.judge``: over ``max_length`` is unsolved, late is a
    timeout); the same cube asked for 11 times gets one answer (determinism under the
    seed: a solver random half the time is caught with probability 0.999).
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
    answers = [_attempt(solver, c, budget)[0] for c in cubes]
    forms = [
        (i, r.status, r.error)
        for i, r in enumerate(answers)
        if r.status in ("illegal", "wrong", "error")
    ]
    check("answers are legal moves that verify (or an honest give-up)", not forms, str(forms[:2]))

    # the budgets are judged by the runner's own code (verify.judge): an answer over
    # max_length is unsolved there, an answer after the wall budget a timeout
    solved = [(c, r) for c, r in zip(cubes, answers, strict=True) if r.status == "solved"]
    cube, answer = max(solved, key=lambda p: len(p[1].moves.split()), default=(cubes[-1], None))
    cap = max(1, len(answer.moves.split()) - 1) if answer is not None else 8
    record, _ = _attempt(solver, cube, Budget(wall_seconds=time_limit, max_length=cap))
    check(
        f"a length budget is respected (max_length={cap} on a cube it solved in {cap + 1})"
        if answer is not None
        else "a length budget is respected",
        not (record.error or "").startswith("solution of"),
        f"the runner records it unsolved: {record.error}",
    )

    # a short budget on a cube no solver finishes in it: an answer after it is a timeout,
    # and a solver still busy at the runner's grace is killed; one that gives up at about
    # its deadline (a model call past it, say) is recorded a timeout too, and that is all
    quick = Budget(wall_seconds=wall_budget)
    record, wall = _attempt(solver, cubes[-1], quick)
    late_answer = record.status == "timeout" and bool(record.moves)
    check(
        f"a wall budget of {wall_budget} s is respected",
        not late_answer and wall <= kill_after(wall_budget),
        f"took {wall:.2f} s, which the runner records as a timeout"
        if late_answer
        else f"took {wall:.2f} s; the runner kills a solver still busy after "
        f"{kill_after(wall_budget):.2f} s",
    )

    # asked DETERMINISM_ASKS times, a solver that answers at random half the time is caught
    # with probability 1 - 0.5 ** (asks - 1) or more: 0.999 at 11
    answers_again = [_attempt(solver, cubes[0], budget)[0].moves for _ in range(DETERMINISM_ASKS)]
    differing = sorted(set(answers_again) - {answers_again[0]})
    check(
        f"answers are deterministic (asked {DETERMINISM_ASKS} times)",
        not differing,
        f"{answers_again[0]!r}, then also {differing[0]!r}" if differing else "",
    )
    misplaced = hasattr(type(solver), "OPTION_HELP")  # the settings class is not in its MRO
    check(
        "setting help is declared on the settings class",
        not misplaced,
        "OPTION_HELP is on the solver class, where nothing reads it; move it to its Settings",
    )
    metric = metric_of(solver)
    check(
        "the metric it searches is htm or qtm",
        metric in ("htm", "qtm"),
        f"metric {metric!r}: records judge a solver against the optimum of its metric",
    )
    if strict:
        report.raise_if_failed()
    return report
