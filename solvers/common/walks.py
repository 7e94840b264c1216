"""Training data streamed from the engine: random walks from the solved cube.

Every prefix of a walk is a sample, so one walk of 20 moves gives one state at each depth
1..20, with two labels: the walk length so far (a distance estimate, for value models) and
the move that undoes the last step (for policy models). Half-turn walks never turn the same
face twice in a row; quarter-turn walks (12 moves) never undo their previous move, so ``U U``
(a half turn, two quarter turns long) occurs and each prefix length counts quarter turns
(:mod:`cubebench.harness.cube.movesets`). Under the ``canonical`` rule a walk follows the
searches' canonical sequences instead (opposite faces in ascending order; in quarter turns
no move a third time in a row, since ``U U U`` is ``U'``), so fewer of its steps cancel and
its length stays nearer the distance it reaches. Trainers draw training and validation
walks from separate seed streams, and never use the suites.
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np

from ...harness import MOVE_INVERSE, MoveSet, apply_moves, move_set, solved_batch

WalkRule = Literal["nonbacktracking", "canonical"]
WALK_RULES: tuple[str, ...] = get_args(WalkRule)


def random_walks(
    n: int,
    length: int,
    rng: np.random.Generator,
    metric: str = "htm",
    rule: WalkRule = "nonbacktracking",
) -> np.ndarray:
    """(n, length) move ids (into the 18), uniform among the moves the walk rule allows at
    each step (``nonbacktracking``: in HTM the 15 moves of other faces, in QTM the 11 that do
    not undo; ``canonical``: the moves a canonical sequence allows)."""
    if rule == "canonical":
        return _canonical_walks(n, length, rng, metric)
    moves = move_set(metric)
    return moves.moves[nonbacktracking(n, length, rng, moves)]


def nonbacktracking(n: int, length: int, rng: np.random.Generator, moves: MoveSet) -> np.ndarray:
    """(n, length) local moves of ``moves`` (any puzzle's), each uniform among those its
    walk rule allows after the last (HTM: another group; QTM: not the inverse)."""
    local = np.empty((n, length), dtype=np.int64)
    if length:
        local[:, 0] = rng.integers(0, moves.size, size=n)
    choices = moves.walk_next.shape[1]
    for step in range(1, length):
        local[:, step] = moves.walk_next[local[:, step - 1], rng.integers(0, choices, size=n)]
    return local


def _canonical_walks(n: int, length: int, rng: np.random.Generator, metric: str) -> np.ndarray:
    """(n, length) move ids along canonical sequences of the metric's move set: each step
    uniform among the moves ``MoveSet.follow`` allows after the last, and in quarter turns
    never the same move a third time in a row."""
    moves = move_set(metric)
    local = np.empty((n, length), dtype=np.int64)
    rows = np.arange(n)
    for step in range(length):
        if step == 0:
            allowed = np.ones((n, moves.size), dtype=bool)  # (n, k)
        else:
            allowed = moves.follow[local[:, step - 1]].copy()  # (n, k)
        if step >= 2 and moves.name == "qtm":
            twice = local[:, step - 1] == local[:, step - 2]  # (n,)
            allowed[rows[twice], local[twice, step - 1]] = False
        counts = allowed.sum(axis=1)  # (n,) at least 8 in QTM, 12 in HTM
        pick = (rng.random(n) * counts).astype(np.int64)  # (n,) which allowed move
        local[:, step] = np.argmax(np.cumsum(allowed, axis=1) > pick[:, None], axis=1)
    return moves.moves[local]


def walk_samples(
    n_walks: int,
    length: int,
    rng: np.random.Generator,
    metric: str = "htm",
    rule: WalkRule = "nonbacktracking",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """States of every prefix of ``n_walks`` walks, with labels and depths.

    Returns:
        states (54, n_walks * length) uint8, labels (n_walks * length,) int64 (the undoing
        move), depths (n_walks * length,) int64 in 1..length; depth-major order.
    """
    walks = random_walks(n_walks, length, rng, metric, rule)
    states = np.empty((54, n_walks * length), dtype=np.uint8)
    current = solved_batch(n_walks)
    for step in range(length):
        current = apply_moves(current, walks[:, step])
        states[:, step * n_walks : (step + 1) * n_walks] = current
    labels = MOVE_INVERSE[walks.T.reshape(-1)]
    depths = np.repeat(np.arange(1, length + 1), n_walks)
    return states, labels, depths
