"""A conformance kit any adapter author can run: ``check_solver(MySolver(...))``.

Each check says what a solver must do for the harness's numbers to mean anything. The kit
judges answers the way the runner does (replaying moves on the engine), so passing it means
the solver will not lose instances to ``illegal`` or ``wrong`` for reasons of form.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from .cube import (
    SOLVED,
    apply_sequence,
    canonical_scrambles,
    random_states,
)
from .cube.puzzle import DEFAULT_PUZZLE, Puzzle, puzzle
from .records.schema import Record
from .solver import Budget, Solver, kill_after, metric_of, puzzles_of
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


def _attempt(
    solver: Solver, state: np.ndarray, budget: Budget, puzzle_name: str = DEFAULT_PUZZLE
) -> tuple[Record, float]:
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
    record = judge(
        frozen, raw, budget, solver=solver.name, suite="conformance", instance=0,
        puzzle_name=puzzle_name,
    )  # fmt: skip
    return record, wall


DETERMINISM_ASKS = 11
"""How often the kit asks for one cube's answer; see :func:`check_solver`."""


@dataclass
class _Kit:
    """What the checks share: the solver, its budgets and the cubes it was asked (answered
    once, for every check that reads them)."""

    solver: Solver
    budget: Budget
    wall_budget: float
    rng: np.random.Generator
    cube: Puzzle  # the first puzzle the solver declares
    _answers: list[tuple[np.ndarray, Record]] | None = None

    def attempt(self, state: np.ndarray, budget: Budget | None = None) -> tuple[Record, float]:
        return _attempt(self.solver, state, budget or self.budget, self.cube.name)

    def answers(self) -> list[tuple[np.ndarray, Record]]:
        """Three depth-4 cubes and a random state, each with the solver's judged answer."""
        if self._answers is None:
            if self.cube.name == DEFAULT_PUZZLE:
                scrambles = [s.tolist() for s in canonical_scrambles(3, 4, self.rng)]
                cubes = [apply_sequence(SOLVED, s) for s in scrambles]
                cubes.append(random_states(1, self.rng)[:, 0])
            else:  # another size: turns of its face-turn metric, then a long random walk
                moves = self.cube.metrics["htm"]
                walks = [self.rng.choice(moves, size=n).tolist() for n in (4, 4, 4, 60)]
                cubes = [self.cube.apply(self.cube.solved, walk) for walk in walks]
            self._answers = [(c, self.attempt(c)[0]) for c in cubes]
        return self._answers


Outcome = tuple[bool, str, str]
"""(passed, the check as it ran, why it failed)."""


@dataclass(frozen=True)
class Check:
    """One thing a solver must do for the harness's numbers to mean anything."""

    name: str
    run: Callable[[_Kit], Outcome]
    fix: str  # how an adapter author puts it right


def _solved_cube(kit: _Kit) -> Outcome:
    record, _ = kit.attempt(kit.cube.solved)
    ok = record.status == "solved" and not record.moves
    why = f"got status {record.status} with moves {record.moves!r} {record.error or ''}"
    return ok, "solved cube gives no moves", why


def _depth_one(kit: _Kit) -> Outcome:
    bad = []
    for move in range(kit.cube.num_moves):
        record, _ = kit.attempt(kit.cube.apply(kit.cube.solved, [move]))
        if record.status != "solved":
            bad.append(f"{move}: {record.status} {record.error or record.moves!r}")
    return not bad, "every depth-1 cube is solved", "; ".join(bad[:3])


def _legal(kit: _Kit) -> Outcome:
    forms = [
        (i, r.status, r.error)
        for i, (_, r) in enumerate(kit.answers())
        if r.status in ("illegal", "wrong", "error")
    ]
    return not forms, "answers are legal moves that verify (or an honest give-up)", str(forms[:2])


def _quickest(kit: _Kit) -> tuple[np.ndarray, Record] | None:
    """The cube of two or more moves that the solver solved fastest: the checks that ask a
    cube again ask this one, for any such cube tests them as well (a length budget one
    below a one-move answer would be none), and a random state asked eleven times can take
    a searching solver minutes."""
    solved = [(c, r) for c, r in kit.answers() if r.status == "solved" and " " in r.moves]
    return min(solved, key=lambda p: p[1].wall_s or 0.0, default=None)


def _length_budget(kit: _Kit) -> Outcome:
    # judged by the runner's own code (verify.judge): an answer over max_length is unsolved
    cube, answer = _quickest(kit) or (kit.answers()[-1][0], None)
    cap = len(answer.moves.split()) - 1 if answer is not None else 8  # answers have 2+ moves
    record, _ = kit.attempt(cube, Budget(wall_seconds=kit.budget.wall_seconds, max_length=cap))
    name = (
        f"a length budget is respected (max_length={cap} on a cube it solved in {cap + 1})"
        if answer is not None
        else "a length budget is respected"
    )
    ok = not (record.error or "").startswith("solution of")
    return ok, name, f"the runner records it unsolved: {record.error}"


def _wall_budget(kit: _Kit) -> Outcome:
    # a short budget on a cube no solver finishes in it: an answer after it is a timeout,
    # and a solver still busy at the runner's grace is killed; one that gives up at about
    # its deadline (a model call past it, say) is recorded a timeout too, and that is all
    limit = kit.wall_budget
    record, wall = kit.attempt(kit.answers()[-1][0], Budget(wall_seconds=limit))
    late_answer = record.status == "timeout" and bool(record.moves)
    why = (
        f"took {wall:.2f} s, which the runner records as a timeout"
        if late_answer
        else f"took {wall:.2f} s; the runner kills a solver still busy after "
        f"{kill_after(limit):.2f} s"
    )
    return (
        not late_answer and wall <= kill_after(limit),
        f"a wall budget of {limit} s is respected",
        why,
    )


def _deterministic(kit: _Kit) -> Outcome:
    # asked DETERMINISM_ASKS times, a solver that answers at random half the time is caught
    # with probability 1 - 0.5 ** (asks - 1) or more: 0.999 at 11
    cube = (_quickest(kit) or kit.answers()[0])[0]
    again = [kit.attempt(cube)[0].moves for _ in range(DETERMINISM_ASKS)]
    differing = sorted(set(again) - {again[0]})
    why = f"{again[0]!r}, then also {differing[0]!r}" if differing else ""
    return not differing, f"answers are deterministic (asked {DETERMINISM_ASKS} times)", why


def _setting_help(kit: _Kit) -> Outcome:
    misplaced = hasattr(type(kit.solver), "OPTION_HELP")  # not where the settings are
    why = "OPTION_HELP is on the solver class, where nothing reads it"
    return not misplaced, "setting help is declared on the settings class", why


def _metric(kit: _Kit) -> Outcome:
    metric = metric_of(kit.solver)
    why = f"metric {metric!r}: records judge a solver against the optimum of its metric"
    return metric in ("htm", "qtm"), "the metric it searches is htm or qtm", why


CHECKS: dict[str, Check] = {
    "solved-cube": Check("solved cube", _solved_cube,
                         "return Attempt(()) for a solved cube: nothing to do"),
    "depth-one": Check("depth-1 cubes", _depth_one,
                       "a solver should at least undo one move; check its move ids (0..17)"),
    "legal-answers": Check("legal answers", _legal,
                           "return move ids 0..17 that solve the cube, or () to give up"),
    "length-budget": Check("length budget", _length_budget,
                           "give up (return ()) rather than answer past budget.max_length"),
    "wall-budget": Check("wall budget", _wall_budget,
                         "stop at budget.deadline(); return what you have (or ()) by then"),
    "deterministic": Check("determinism", _deterministic,
                           "seed every random choice from the solver's settings"),
    "setting-help": Check("setting help", _setting_help,
                          "move OPTION_HELP to the solver's Settings class"),
    "metric": Check("metric", _metric, "set its metric (or settings.metric) to htm or qtm"),
}  # fmt: skip
"""Every check by its id, in the order :func:`check_solver` runs them."""


def check_solver(
    solver: Solver,
    *,
    time_limit: float = 30.0,
    seed: int = 0,
    strict: bool = True,
    wall_budget: float = 0.2,
    only: Iterable[str] | None = None,
) -> ConformanceReport:
    """Run the checks of :data:`CHECKS` (``only``: these ids, in that order); with
    ``strict`` raise :class:`ConformanceError` on any failure, each with how to fix it.

    The checks: the solved cube gets no moves; every depth-1 cube is solved; moves are
    legal and verified by replay (never ``illegal``/``wrong``); a length budget below the
    length of an answer it gave and a short wall budget (``wall_budget`` seconds) are
    respected, as the runner judges them (``verify.judge``); the same cube asked for 11
    times gets one answer (a solver random half the time is caught with probability
    0.999); setting help lives on the settings class; the metric is htm or qtm.

    Raises:
        ValueError: an id in ``only`` that is no check.
    """
    chosen = list(only) if only is not None else list(CHECKS)
    unknown = [c for c in chosen if c not in CHECKS]
    if unknown:
        raise ValueError(f"no check {unknown[0]!r}; the checks: {', '.join(CHECKS)}")
    report = ConformanceReport(getattr(solver, "name", type(solver).__name__))
    cube = puzzle(puzzles_of(solver)[0])
    kit = _Kit(
        solver, Budget(wall_seconds=time_limit), wall_budget, np.random.default_rng(seed), cube
    )
    for key in chosen:
        ok, name, why = CHECKS[key].run(kit)
        if ok:
            report.passed.append(name)
        else:
            report.failures.append(f"{name}: {why} (fix: {CHECKS[key].fix})")
    if strict:
        report.raise_if_failed()
    return report
