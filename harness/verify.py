"""The harness's own verdict on an attempt: replay the moves, never trust the solver.

Workers send back raw attempts as plain data; :func:`judge` checks every move is a move,
replays them on the engine and decides the status. Budgets the solver should have respected
(length, nodes, model calls, wall time) turn an answer that does solve the cube into
``unsolved`` or ``timeout``, so no solver gains by overspending.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cube import apply_sequence, format_moves, is_solved
from .cube.notation import solution_lengths
from .cube.puzzle import DEFAULT_PUZZLE, puzzle
from .records.schema import Record, Status
from .solver import WALL_CAP, Attempt, Budget

_MAX_INFO_CHARS = 4000
MAX_ANSWER_MOVES = 10_000
"""The longest answer replayed when a run sets no ``max_length``. A longer one is ``unsolved``
without being sent or replayed: no solver's answer needs it, and a hostile one of millions
of moves would otherwise hold up the harness and bloat the records."""


@dataclass(frozen=True)
class RawAttempt:
    """An attempt as it crosses the process boundary: only plain Python values."""

    moves: list[Any]
    nodes: Any
    model_calls: Any
    info: Any
    wall_s: float
    dropped_moves: int = 0  # an answer over the longest accepted: its length, moves not sent
    cpu_s: float | None = None  # the solver's CPU seconds (its worker's and its children's)


def to_raw(
    attempt: Any, wall_s: float, max_moves: int | None = None, cpu_s: float | None = None
) -> RawAttempt:
    """Flatten what ``solve`` returned; anything odd is kept (as repr) for judge to flag.

    ``max_moves``: an answer longer than this (default :data:`MAX_ANSWER_MOVES`) keeps only
    its length, which :func:`judge` records as ``unsolved``.
    """
    if not isinstance(attempt, Attempt):
        raise TypeError(f"solve() returned {type(attempt).__name__}, not an Attempt")
    cap = max_moves or MAX_ANSWER_MOVES
    try:
        count = len(attempt.moves)
    except TypeError:
        count = 0
    if count > cap:
        return RawAttempt(
            [],
            _count(attempt.nodes_expanded),
            _count(attempt.model_calls),
            _plain(attempt.info),
            wall_s,
            dropped_moves=count,
            cpu_s=cpu_s,
        )
    try:
        moves: list[Any] = [int(m) if isinstance(m, np.integer) else m for m in attempt.moves]
    except TypeError:
        moves = [repr(attempt.moves)]
    moves = [m if isinstance(m, int) and not isinstance(m, bool) else repr(m) for m in moves]
    info = _plain(attempt.info)
    return RawAttempt(
        moves, _count(attempt.nodes_expanded), _count(attempt.model_calls), info, wall_s, 0, cpu_s
    )


def _count(value: Any) -> int:
    try:
        return max(int(value), 0)
    except (TypeError, ValueError):
        return 0


def _plain(info: Any) -> dict[str, Any]:
    try:
        text = json.dumps(dict(info), default=str)
    except (TypeError, ValueError):
        return {"unserializable_info": repr(info)[:200]}
    if len(text) > _MAX_INFO_CHARS:
        return {"truncated_info": text[:_MAX_INFO_CHARS]}
    return json.loads(text)


def judge(
    state: np.ndarray,
    raw: RawAttempt,
    budget: Budget,
    *,
    solver: str,
    suite: str,
    instance: int,
    optimal: tuple[int | None, int | None] = (None, None),
    puzzle_name: str = DEFAULT_PUZZLE,
) -> Record:
    """Replay ``raw.moves`` on ``state`` (a state of ``puzzle_name``) and return the record.

    ``optimal``: the instance's optimal (HTM, QTM) lengths where known. The record keeps the
    metric the solver says it optimized (``info["metric"]``), so a QTM search is judged
    against the QTM optimum and a HTM one against the HTM optimum, and both lengths stay.
    """
    optimal_htm, optimal_qtm = optimal
    metric = raw.info.get("metric") if isinstance(raw.info, dict) else None
    base: dict[str, Any] = {
        "entry": solver,
        "suite": suite,
        "instance": instance,
        "optimal_htm": optimal_htm,
        "optimal_qtm": optimal_qtm,
        "metric": metric if metric in ("htm", "qtm") else None,
        "wall_s": round(raw.wall_s, 6),
        "cpu_s": None if raw.cpu_s is None else round(raw.cpu_s, 6),
        "nodes": raw.nodes,
        "model_calls": raw.model_calls,
        "info": raw.info,
    }
    if raw.dropped_moves:
        cap = budget.max_length or MAX_ANSWER_MOVES
        why = f"an answer of {raw.dropped_moves} moves is over the longest accepted ({cap})"
        return Record(status="unsolved", error=why + "; not replayed", **base)
    cube = puzzle(puzzle_name)
    count = cube.num_moves
    bad = next((m for m in raw.moves if not (isinstance(m, int) and 0 <= m < count)), None)
    if bad is not None or any(isinstance(m, bool) for m in raw.moves):
        return Record(status="illegal", error=f"not a move id (0..{count - 1}): {bad!r}", **base)
    moves = [int(m) for m in raw.moves]
    # lengths count the answer's canonical form (turns of a face merged); budgets count the
    # moves as returned
    if cube.name == DEFAULT_PUZZLE:  # the engine's own replay and lengths
        notation = format_moves(moves)
        htm, qtm = solution_lengths(moves)
        solved = bool(is_solved(apply_sequence(state, moves)))
    else:
        notation = cube.format_moves(moves)
        htm, qtm = cube.length(moves, "htm"), cube.length(moves, "qtm")
        solved = bool(cube.is_solved(cube.apply(state, moves)))
    lengths: dict[str, Any] = {"moves": notation, "length_htm": htm, "length_qtm": qtm}
    if not solved:
        if not moves and _out_of_time(raw, budget):  # a time-out, whoever noticed it first
            said = raw.info.get("gave_up") if isinstance(raw.info, dict) else None
            return Record(status="timeout", error=str(said or "over the wall budget"), **base)
        given_up: Status = "unsolved" if not moves else "wrong"
        return Record(status=given_up, **base, **lengths)
    over = _over_budget(raw, budget, len(moves))
    if over is not None:
        spent: Status = "timeout" if over.startswith(("wall", "CPU")) else "unsolved"
        return Record(status=spent, error=over, **base, **lengths)
    gap = lengths["length_htm"] - optimal_htm if optimal_htm is not None else None
    gap_qtm = lengths["length_qtm"] - optimal_qtm if optimal_qtm is not None else None
    return Record(status="solved", gap_htm=gap, gap_qtm=gap_qtm, **base, **lengths)


def _over_time(raw: RawAttempt, budget: Budget) -> str | None:
    """Why an attempt is over its time, or None: past the limit on the budget's clock (CPU
    seconds, or wall), or past the wall clock's cap of a CPU budget."""
    limit, cap = budget.wall_seconds, budget.wall_cap()
    if limit is None:
        return None
    if budget.clock == "cpu" and raw.cpu_s is not None and raw.cpu_s > limit:
        return f"CPU time {raw.cpu_s:.2f} s over the budget of {limit} CPU s"
    if budget.clock == "wall" and raw.wall_s > limit:
        return f"wall time {raw.wall_s:.2f} s over the budget of {limit} s"
    if cap is not None and raw.wall_s > cap:
        return (
            f"wall time {raw.wall_s:.2f} s over the cap of {cap:g} s (the budget's {WALL_CAP:g}x)"
        )
    return None


def _out_of_time(raw: RawAttempt, budget: Budget) -> bool:
    """No answer, and time ran out: the budget passed, or the solver stopped at its own
    deadline (``info["gave_up"]`` starting with ``time``, the searches' word for it)."""
    if _over_time(raw, budget) is not None:
        return True
    why = raw.info.get("gave_up") if isinstance(raw.info, dict) else None
    return isinstance(why, str) and why.startswith("time")


def _over_budget(raw: RawAttempt, budget: Budget, length: int) -> str | None:
    over_time = _over_time(raw, budget)
    if over_time is not None:
        return over_time
    if budget.max_length is not None and length > budget.max_length:
        return f"solution of {length} moves over the budget of {budget.max_length}"
    if budget.max_nodes is not None and raw.nodes > budget.max_nodes:
        return f"{raw.nodes} nodes over the budget of {budget.max_nodes}"
    if budget.max_model_calls is not None and raw.model_calls > budget.max_model_calls:
        return f"{raw.model_calls} model calls over the budget of {budget.max_model_calls}"
    return None
