"""Greedy rollout: follow the model's best move until solved or out of budget.

How seeds 003 and 004 evaluated their models: a pure argmax over all 18 moves. With
``avoid_revisits`` the rollout takes the best move whose result it has not seen yet, which
breaks the loops a pure argmax falls into. Unlike beam search it masks no move by canonical
order: a rollout has one path, so after ``L'`` on a cube scrambled ``R L`` the follow-up
``R'`` must stay allowed (masking it made 7% of depth-2 cubes unsolvable). It follows the
move set's moves only: a quarter-turn rollout never makes a half turn. With a
meet-in-the-middle table the rollout ends where it enters the table, finished by the
table's optimal path; a rollout whose finish would make the path longer than ``max_depth``
gives up there (the table is exact: no shorter finish exists from that state).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import numpy as np

from ...harness import MOVE_SETS, DistanceOracle, MoveSet
from .kinds import SearchKind, SearchOptions
from .meet import finish_from
from .models import BudgetExhaustedError, CheckedModel, SearchResult


def greedy_rollout(
    state: np.ndarray,
    model: CheckedModel,
    scoring: Literal["policy", "value"] = "policy",
    avoid_revisits: bool = False,
    moves: MoveSet = MOVE_SETS["htm"],
    meet: DistanceOracle | None = None,
) -> SearchResult:
    current = np.asarray(state, np.uint8)[:, None]
    if moves.is_solved(current[:, 0]):
        return SearchResult(moves=())
    path: list[int] = []
    seen = {int(moves.hash(current)[0])}
    info = {} if meet is None else {"mitm_radius": meet.radius}
    try:
        for _ in range(model.limits.max_depth):
            if (tail := finish_from(meet, current[:, 0])) is not None:
                if len(path) + len(tail) > model.limits.max_depth:
                    over = {**info, "gave_up": "max depth"}
                    return SearchResult(None, model.nodes, model.calls, over)
                met = {**info, "met_at_depth": len(path)}
                return SearchResult(tuple(path) + tail, model.nodes, model.calls, met)
            model.spend_nodes(1)
            children = moves.expand(current)  # (S, k)
            if scoring == "policy":
                score = model(current)[0, moves.moves].astype(np.float64)
            else:
                score = -model(children).astype(np.float64)
            if avoid_revisits:
                hashes = moves.hash(children)
                score[[int(h) in seen for h in hashes]] = -np.inf
            if not np.isfinite(score).any():
                return SearchResult(None, model.nodes, model.calls, {"gave_up": "dead end"})
            move = int(np.argmax(score))
            path.append(int(moves.moves[move]))
            current = children[:, move : move + 1]
            if moves.is_solved(current[:, 0]):
                return SearchResult(tuple(path), model.nodes, model.calls, info)
            seen.add(int(moves.hash(current)[0]))
    except BudgetExhaustedError as why:
        return SearchResult(None, model.nodes, model.calls, {"gave_up": str(why)})
    return SearchResult(None, model.nodes, model.calls, {"gave_up": "max depth"})


def _run(state, model, kind, settings, moves, meet) -> SearchResult:
    return greedy_rollout(state, model, kind, settings.avoid_revisits, moves, meet)


@dataclass(frozen=True)
class GreedyOptions(SearchOptions):
    """The greedy rollout's settings."""

    avoid_revisits: bool = True

    KIND: ClassVar[SearchKind] = SearchKind("greedy", _run, ("value", "policy"))
    OPTION_HELP: ClassVar[dict[str, str]] = {
        "avoid_revisits": "greedy rollout skips states it has visited"
    }
