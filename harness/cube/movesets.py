"""The two move sets a search or a model works in: half-turn (HTM) and quarter-turn (QTM).

HTM is all 18 face turns; QTM the 12 quarter turns, where a half turn is two moves. A
move set keeps its moves as ids into the 18 (so paths, notation and verification stay the
engine's), and the pruning that keeps a search on canonical sequences:

- HTM: never the same face twice in a row, opposite faces in ascending order (U before D).
- QTM: never a move followed by its inverse, opposite faces in ascending order. A face may
  turn twice in a row (``U U`` is the half turn, two moves long).

In both, every state within k moves has a canonical sequence of at most k moves, so the
pruning never lengthens an optimal solution (tested against an exact oracle).

Random walks for training follow each set's own non-backtracking rule: HTM walks change
face every step; QTM walks never undo their previous move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from .moves import (
    CANONICAL_FOLLOW,
    MOVE_FACE,
    MOVE_INVERSE,
    MOVE_QTM,
    MOVE_TABLES,
    QUARTER_TURN_MOVES,
)

Metric = Literal["htm", "qtm"]
METRICS: Final[tuple[str, ...]] = ("htm", "qtm")


@dataclass(frozen=True, eq=False)
class MoveSet:
    """One metric's moves. Local index ``i`` is move ``moves[i]`` of the 18.

    Attributes:
        name: ``"htm"`` or ``"qtm"``.
        moves: (k,) move ids into the 18, ascending.
        follow: (k, k) bool; ``follow[a, b]``: local move b may follow local move a in a
            canonical sequence.
        walk_next: (k, r) local moves a training walk may take after each local move.
        child_table: (54, k) gather table: ``states[child_table]`` expands a batch.
        local: (18,) local index of each of the 18 moves, -1 where not in the set.
    """

    name: Metric
    moves: np.ndarray
    follow: np.ndarray
    walk_next: np.ndarray
    child_table: np.ndarray
    local: np.ndarray

    @property
    def size(self) -> int:
        return int(self.moves.size)

    def length(self, path: tuple[int, ...] | list[int]) -> int:
        """Length of a path of move ids in this set's metric."""
        return len(path) if self.name == "htm" else int(MOVE_QTM[list(path)].sum())

    def allowed_after(self, last_local: np.ndarray) -> np.ndarray:
        """(N,) previous local move (-1 for none) -> (N, k) bool of moves pruning allows."""
        allowed = self.follow[np.maximum(last_local, 0)]
        allowed[last_local < 0] = True
        return allowed

    def expand(self, states: np.ndarray) -> np.ndarray:
        """(54, N) -> (54, k N); child ``i * N + j`` is local move i applied to state j."""
        return states[self.child_table].reshape(states.shape[0], -1)


def _build(name: Metric) -> MoveSet:
    moves = np.arange(18) if name == "htm" else np.array(QUARTER_TURN_MOVES)
    face = MOVE_FACE[moves]
    same_face = face[:, None] == face[None, :]
    if name == "htm":
        follow = CANONICAL_FOLLOW.copy()
        walk_ok = ~same_face
    else:
        # HTM's rule without its same-face ban: what it forbids across faces is the
        # descending order of an opposite pair
        descending = ~CANONICAL_FOLLOW[np.ix_(moves, moves)] & ~same_face
        inverse = MOVE_INVERSE[moves][:, None] == moves[None, :]
        follow = ~(inverse | descending)
        walk_ok = ~inverse
    walk_next = np.array([np.flatnonzero(row) for row in walk_ok])
    child_table = np.ascontiguousarray(MOVE_TABLES[moves].T)
    local = np.full(18, -1)
    local[moves] = np.arange(moves.size)
    for array in (moves, follow, walk_next, child_table, local):
        array.setflags(write=False)
    return MoveSet(name, moves, follow, walk_next, child_table, local)


MOVE_SETS: Final[dict[str, MoveSet]] = {name: _build(name) for name in ("htm", "qtm")}


def move_set(name: str) -> MoveSet:
    """The move set named ``name``; a clear error for anything but htm or qtm."""
    try:
        return MOVE_SETS[name]
    except KeyError:
        raise ValueError(f"metric {name!r}: expected one of {', '.join(METRICS)}") from None
