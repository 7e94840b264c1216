"""Training data streamed from the engine: random walks from the solved cube.

Every prefix of a walk is a sample, so one walk of 20 moves gives one state at each depth
1..20, with two labels: the walk length so far (a distance estimate, for value models) and
the move that undoes the last step (for policy models). Walks never turn the same face twice
in a row, so the undoing move is well defined and walks do not trivially backtrack. Trainers
draw training and validation walks from separate seed streams, and never use the suites.
"""

from __future__ import annotations

import numpy as np

from harness.cube import MOVE_INVERSE, apply_moves, solved_batch
from harness.cube.moves import MOVE_FACE

_NEXT_MOVES = np.array([[m for m in range(18) if MOVE_FACE[m] != MOVE_FACE[p]] for p in range(18)])


def random_walks(n: int, length: int, rng: np.random.Generator) -> np.ndarray:
    """(n, length) move ids, uniform among the 15 moves of other faces at each step."""
    moves = np.empty((n, length), dtype=np.int64)
    moves[:, 0] = rng.integers(0, 18, size=n)
    for step in range(1, length):
        moves[:, step] = _NEXT_MOVES[moves[:, step - 1], rng.integers(0, 15, size=n)]
    return moves


def walk_samples(
    n_walks: int, length: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """States of every prefix of ``n_walks`` walks, with labels and depths.

    Returns:
        states (54, n_walks * length) uint8, labels (n_walks * length,) int64 (the undoing
        move), depths (n_walks * length,) int64 in 1..length; depth-major order.
    """
    walks = random_walks(n_walks, length, rng)
    states = np.empty((54, n_walks * length), dtype=np.uint8)
    current = solved_batch(n_walks)
    for step in range(length):
        current = apply_moves(current, walks[:, step])
        states[:, step * n_walks : (step + 1) * n_walks] = current
    labels = MOVE_INVERSE[walks.T.reshape(-1)]
    depths = np.repeat(np.arange(1, length + 1), n_walks)
    return states, labels, depths
