"""Beam search: keep the best ``width`` states each step, stop at the first solved one.

Two scorings: ``"policy"`` ranks children by cumulative log-probability (EfficientCube: the
model sees only the W parents per step), ``"value"`` by the children's estimated distance
(CubeGPT, seed 001: the model sees every child). Children are generated for all moves in one
engine call; moves that turn the previous face again or break the opposite-face order are
dropped (they never shorten a solution), duplicate states are merged keeping the best score.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from harness.cube import expand, is_solved, state_hash
from harness.cube.moves import CANONICAL_FOLLOW
from solvers.search.models import BudgetExhaustedError, CheckedModel, SearchResult


def _allowed(last_moves: np.ndarray) -> np.ndarray:
    """(N,) previous move (-1 for none) -> (N, 18) bool of moves a canonical path allows."""
    allowed = CANONICAL_FOLLOW[np.maximum(last_moves, 0)]
    allowed[last_moves < 0] = True
    return allowed


def beam_search(
    state: np.ndarray,
    model: CheckedModel,
    width: int,
    scoring: Literal["policy", "value"] = "policy",
) -> SearchResult:
    """Search from ``state`` (54,) with ``model`` under ``model.limits``."""
    if is_solved(state):
        return SearchResult(moves=())
    beam = np.asarray(state, np.uint8)[:, None]  # (54, N)
    scores = np.zeros(1)  # (N,) higher is better
    last = np.full(1, -1)  # (N,) previous move
    parents: list[np.ndarray] = []  # per depth: (N,) index into the previous beam
    moves: list[np.ndarray] = []  # per depth: (N,) move that led here
    try:
        for _depth in range(model.limits.max_depth):
            n = beam.shape[1]
            model.spend_nodes(n)
            children = expand(beam)  # (54, 18 n), child m * n + j
            allowed = _allowed(last).T.reshape(-1)  # (18 n,) in child order
            if scoring == "policy":
                logp = model(beam)  # (n, 18)
                child_scores = (scores[:, None] + logp).T.reshape(-1)
                child_scores[~allowed] = -np.inf
                keep = np.flatnonzero(np.isfinite(child_scores))
            else:
                keep = np.flatnonzero(allowed)
                child_scores = np.full(children.shape[1], -np.inf)
            solved = keep[is_solved(children)[keep]]  # contiguous test, then select
            if solved.size:
                best = solved[0] if scoring == "value" else solved[np.argmax(child_scores[solved])]
                path = _path(parents, moves, int(best) % n, int(best) // n)
                return SearchResult(path, model.nodes, model.calls, {"width": width})
            if scoring == "policy" and keep.size > 2 * width:
                # only the best 2W can make the beam; duplicates are merged among them
                keep = keep[np.argpartition(-child_scores[keep], 2 * width - 1)[: 2 * width]]
            keep = _dedup(children, keep, child_scores if scoring == "policy" else None)
            if scoring == "value":
                child_scores[keep] = -model(children[:, keep])
            if keep.size > width:
                keep = keep[np.argpartition(-child_scores[keep], width - 1)[:width]]
            parents.append(keep % n)
            moves.append(keep // n)
            beam, scores, last = children[:, keep], child_scores[keep], keep // n
    except BudgetExhaustedError as why:
        return SearchResult(None, model.nodes, model.calls, {"gave_up": str(why)})
    return SearchResult(None, model.nodes, model.calls, {"gave_up": "max depth"})


def _dedup(children: np.ndarray, keep: np.ndarray, scores: np.ndarray | None) -> np.ndarray:
    """Indices in ``keep`` with one child per distinct state (the best-scoring one)."""
    hashes = state_hash(children[:, keep])
    order = np.argsort(-scores[keep], kind="stable") if scores is not None else np.arange(keep.size)
    _, first = np.unique(hashes[order], return_index=True)
    return keep[order[first]]


def _path(
    parents: list[np.ndarray], moves: list[np.ndarray], parent: int, move: int
) -> tuple[int, ...]:
    path = [move]
    for depth in range(len(parents) - 1, -1, -1):
        path.append(int(moves[depth][parent]))
        parent = int(parents[depth][parent])
    return tuple(reversed(path))
