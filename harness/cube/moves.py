"""The 18 face turns of the half-turn metric as gather tables, in one documented order.

Move ids are ``3 * face + (quarter_turns - 1)`` with faces in ``kociemba`` order, so the
order is ``U U2 U' R R2 R' F F2 F' D D2 D' L L2 L' B B2 B'``. Quarter-turn moves (the QTM
subset) are those with ``quarter_turns`` of 1 or 3.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from .geometry import FACES, NUM_STICKERS, quarter_turn_permutation

NUM_MOVES: Final = 18
_SUFFIXES: Final = ("", "2", "'")

MOVE_NAMES: Final[tuple[str, ...]] = tuple(f + s for f in FACES for s in _SUFFIXES)
"""Singmaster name of each move id."""

MOVE_FACE: Final = np.repeat(np.arange(6, dtype=np.int64), 3)
"""(18,) face index of each move."""

MOVE_QUARTER_TURNS: Final = np.tile(np.array([1, 2, 3], dtype=np.int64), 6)
"""(18,) clockwise quarter turns of each move (3 is the anticlockwise quarter turn)."""

MOVE_INVERSE: Final = MOVE_FACE * 3 + (2 - np.arange(NUM_MOVES) % 3)
"""(18,) the id of the move that undoes each move."""

MOVE_QTM: Final = np.where(MOVE_QUARTER_TURNS == 2, 2, 1)
"""(18,) length of each move in the quarter-turn metric."""

QUARTER_TURN_MOVES: Final = tuple(int(m) for m in np.flatnonzero(MOVE_QTM == 1))

OPPOSITE_FACE: Final = (np.arange(6) + 3) % 6
"""(6,) the face opposite each face: U-D, R-L, F-B."""


def _build_tables() -> np.ndarray:
    tables = np.empty((NUM_MOVES, NUM_STICKERS), dtype=np.intp)
    for f, face in enumerate(FACES):
        quarter = quarter_turn_permutation(face)
        perm = np.arange(NUM_STICKERS)
        for turns in range(1, 4):
            perm = perm[quarter]
            tables[3 * f + turns - 1] = perm
    tables.setflags(write=False)
    return tables


MOVE_TABLES: Final = _build_tables()
"""(18, 54) gather tables: applying move ``m`` is ``state[MOVE_TABLES[m]]``."""


def _build_follow_mask() -> np.ndarray:
    # allowed[prev, next]: canonical sequences never turn a face twice in a row and list the
    # two faces of an opposite pair in ascending face order (U before D, R before L, F before B)
    face = MOVE_FACE
    same = face[:, None] == face[None, :]
    opposite_descending = (OPPOSITE_FACE[face][:, None] == face[None, :]) & (
        face[None, :] < face[:, None]
    )
    allowed = ~(same | opposite_descending)
    allowed.setflags(write=False)
    return allowed


CANONICAL_FOLLOW: Final = _build_follow_mask()
"""(18, 18) bool: ``CANONICAL_FOLLOW[a, b]`` is True when move b may follow move a in a
canonical sequence. Every state within k moves has a canonical sequence of length <= k."""
