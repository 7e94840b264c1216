"""Beam search: keep the best ``width`` states each step, stop at the first solved one.

Two scorings: ``"policy"`` ranks children by cumulative log-probability (EfficientCube: the
model sees only the W parents per step), ``"value"`` by the children's estimated distance
(CubeGPT, seed 001: the model sees every child). A value beam builds all children in one
engine call; a policy beam ranks them from the score table first and builds only the best
2W. Searches run over a move set (:mod:`cubebench.harness.cube.movesets`): the 18 half turns or the
12 quarter turns, whose canonical pruning drops moves that never shorten a solution;
duplicate states are merged keeping the best score. Paths come back as ids into the 18.

With a meet-in-the-middle table (:mod:`cubebench.solvers.search.meet`) every child is looked
up as it is made; the first step that reaches the table ends the search with the child
closest to solved by table, and the table's optimal path finishes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, ClassVar, Literal, NamedTuple

import numpy as np

from ...harness import MOVE_SETS, DistanceOracle, MoveSet
from .kinds import BEAM_WIDTH, SearchKind, SearchOptions
from .meet import finish_from
from .models import BudgetExhaustedError, CheckedModel, SearchResult

HTM = MOVE_SETS["htm"]


def beam_search(
    state: np.ndarray,
    model: CheckedModel,
    width: int,
    scoring: Literal["policy", "value"] = "policy",
    moves: MoveSet = HTM,
    meet: DistanceOracle | None = None,
) -> SearchResult:
    """Search from ``state`` (S,) with ``model`` under ``model.limits`` over ``moves``,
    ending where it touches ``meet``'s table when one is given."""
    if moves.is_solved(state):
        return SearchResult(moves=())
    info: dict = {"width": width}
    longest = model.limits.max_depth
    steps = longest
    if meet is not None:
        info["mitm_radius"] = meet.radius
        if (tail := finish_from(meet, state)) is not None:
            if len(tail) > longest:  # the table is exact: nothing as short exists
                return SearchResult(None, 0, 0, {**info, "gave_up": "max depth"})
            return SearchResult(tail, 0, 0, {**info, "met_at_depth": 0})
        # a child first touches the table exactly ``radius`` moves out (its parent, checked
        # a step before, was not inside), so a path met after step d has d + radius moves
        steps = longest - meet.radius
    beam = np.asarray(state, np.uint8)[:, None]  # (S, N): S stickers, 54 on the 3×3×3
    scores = np.zeros(1)  # (N,) higher is better
    last = np.full(1, -1)  # (N,) previous local move
    parents: list[np.ndarray] = []  # per depth: (N,) index into the previous beam
    taken: list[np.ndarray] = []  # per depth: (N,) local move that led here
    step = _policy_step if scoring == "policy" else _value_step
    try:
        for _depth in range(steps):
            model.spend_nodes(beam.shape[1])
            beam, scores, last, parent, solved, tail = step(
                beam, scores, last, model, width, moves, meet
            )
            if solved is not None:
                path = _path(parents, taken, int(parent[solved]), int(last[solved]))
                if meet is not None and tail is not None:
                    info["met_at_depth"] = len(path)
                return SearchResult(
                    tuple(int(moves.moves[m]) for m in path) + (tail or ()),
                    model.nodes,
                    model.calls,
                    info,
                )
            parents.append(parent)
            taken.append(last)
    except BudgetExhaustedError as why:
        return SearchResult(None, model.nodes, model.calls, {"gave_up": str(why)})
    return SearchResult(None, model.nodes, model.calls, {"gave_up": "max depth"})


class _Step(NamedTuple):
    """The next beam (S, N) with its scores, local moves and parents (each (N,)), and the
    index among them of a solved child, if one was found (the beam is then left empty);
    ``tail``: for a child found in the meet table, its optimal path to solved (ids into 18)."""

    beam: np.ndarray
    scores: np.ndarray
    moves: np.ndarray
    parents: np.ndarray
    solved: int | None = None
    tail: tuple[int, ...] | None = None


def _met(states: np.ndarray, ids: np.ndarray, n: int, meet: DistanceOracle | None) -> _Step | None:
    """The step that ends the search at the child nearest solved by ``meet``'s table, or None
    when none of ``states`` (S, C), the children with ids ``m * n + j`` ``ids`` (C,), is in
    it."""
    if meet is None or not ids.size:
        return None
    table = meet.table_distance(states)  # (C,)
    nearest = int(np.argmin(table))
    if table[nearest] > meet.radius:
        return None
    child = int(ids[nearest])
    tail = meet.path_to_solved(states[:, nearest])
    parent, move = np.array([child % n]), np.array([child // n])
    return _Step(states[:, :0], np.zeros(1), move, parent, 0, tail)


def _policy_step(
    beam: np.ndarray,
    scores: np.ndarray,
    last: np.ndarray,
    model: CheckedModel,
    width: int,
    moves: MoveSet,
    meet: DistanceOracle | None = None,
) -> _Step:
    """One EfficientCube step: children ranked by score before any of them is built.

    A child's score needs only its parent's logits, so the k n
    children are never materialised: a child is solved exactly when its parent is one move
    from solved, the best 2W scores are chosen from the score table, and only those are built.
    """
    n = beam.shape[1]
    logp = model(beam)  # (n, P): every move of the puzzle
    if moves.size < logp.shape[1]:
        logp = logp[:, moves.moves]  # (n, k): the set's moves of the P
    child_scores = (scores[:, None] + logp).T.reshape(-1)  # (k n,) child m * n + j
    child_scores[~moves.allowed_after(last).T.reshape(-1)] = -np.inf
    keep = np.flatnonzero(np.isfinite(child_scores))
    solved = _solving_children(beam, moves)  # sorted child indices
    solved = solved[np.isfinite(child_scores[solved])]
    if solved.size:
        best = solved[np.argmax(child_scores[solved])]
        return _Step(
            beam[:, :0], child_scores[[best]], np.array([best // n]), np.array([best % n]), 0
        )
    if keep.size > 2 * width:
        # only the best 2W can make the beam; duplicates are merged among them
        keep = keep[np.argpartition(-child_scores[keep], 2 * width - 1)[: 2 * width]]
    children = moves.children(beam, keep % n, moves.moves[keep // n])  # (S, K)
    chosen = _dedup(children, child_scores[keep], moves)
    if meet is not None and (met := _met(children[:, chosen], keep[chosen], n, meet)):
        return met
    if chosen.size > width:
        chosen = chosen[np.argpartition(-child_scores[keep[chosen]], width - 1)[:width]]
    keep = keep[chosen]
    return _Step(children[:, chosen], child_scores[keep], keep // n, keep % n)


def _value_step(
    beam: np.ndarray,
    scores: np.ndarray,
    last: np.ndarray,
    model: CheckedModel,
    width: int,
    moves: MoveSet,
    meet: DistanceOracle | None = None,
) -> _Step:
    """One CubeGPT / seed-001 / CayleyPy step: every distinct allowed child is scored."""
    n = beam.shape[1]
    children = moves.expand(beam)  # (S, k n), child m * n + j
    keep = np.flatnonzero(moves.allowed_after(last).T.reshape(-1))
    solved = keep[moves.is_solved(children)[keep]]  # contiguous test, then select
    if solved.size:
        best = solved[0]
        return _Step(children[:, :0], np.zeros(1), np.array([best // n]), np.array([best % n]), 0)
    # np.take keeps C order, which a fancy column index would not: every later pass over
    # the children (hashes, table look-ups, the model's rows) reads them contiguously
    keep = keep[_dedup(np.take(children, keep, axis=1), None, moves)]
    kept = np.take(children, keep, axis=1)  # (S, K)
    if (met := _met(kept, keep, n, meet)) is not None:
        return met  # before the model: the table settles this step
    child_scores = -model(kept)  # (K,)
    if keep.size > width:
        top = np.argpartition(-child_scores, width - 1)[:width]
        return _Step(np.take(kept, top, axis=1), child_scores[top], keep[top] // n, keep[top] % n)
    return _Step(kept, child_scores, keep // n, keep % n)


@cache
def _one_move_hashes(moves: MoveSet) -> np.ndarray:
    """(k R,) hash of local move i applied to solved state r (of the set's R), at i R + r."""
    return moves.hash(moves.expand(moves.solved_states))


def _solving_children(beam: np.ndarray, moves: MoveSet) -> np.ndarray:
    """Sorted child indices ``m * n + j`` whose state is solved: parent j is local move m's
    inverse applied to solved. Hash match first, then an exact check of the few candidates."""
    n = beam.shape[1]
    one_move = _one_move_hashes(moves)
    hashes = moves.hash(beam)  # (n,)
    near = np.flatnonzero(np.isin(hashes, one_move))
    if not near.size:
        return near
    matches = hashes[near, None] == one_move[None, :]  # (c, k R)
    local = np.argmax(matches, axis=1) // moves.solved_states.shape[1]  # (c,)
    solving = moves.inverse[moves.moves[local]]  # ids into the puzzle's moves
    exact = moves.is_solved(moves.children(beam, near, solving))
    return np.sort(moves.local[solving[exact]] * n + near[exact])


def _dedup(children: np.ndarray, scores: np.ndarray | None, moves: MoveSet) -> np.ndarray:
    """Column indices of ``children`` (S, K) with one per distinct state, the best-scoring."""
    hashes = moves.hash(children)
    order = np.argsort(-scores, kind="stable") if scores is not None else np.arange(hashes.size)
    _, first = np.unique(hashes[order], return_index=True)
    return order[first]


def _path(
    parents: list[np.ndarray], taken: list[np.ndarray], parent: int, move: int
) -> tuple[int, ...]:
    """Local moves from the root to the child ``move`` of beam entry ``parent``."""
    path = [move]
    for depth in range(len(parents) - 1, -1, -1):
        path.append(int(taken[depth][parent]))
        parent = int(parents[depth][parent])
    return tuple(reversed(path))


def _run(state, model, kind, settings, moves, meet) -> SearchResult:
    return beam_search(state, model, settings.beam_width, kind, moves, meet)


@dataclass(frozen=True)
class BeamOptions(SearchOptions):
    """Beam search's settings."""

    beam_width: Annotated[int, BEAM_WIDTH] = 1024

    KIND: ClassVar[SearchKind] = SearchKind("beam", _run, ("value", "policy"))
    OPTION_HELP: ClassVar[dict[str, str]] = {"beam_width": "states kept per step of beam search"}
