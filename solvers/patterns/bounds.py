"""The corner pattern database as a bound a learned value can lean on.

A value network trained on walk lengths saturates far from solved: the states of a random
cube's first steps all look about 20 moves out, and a narrow beam has little to rank them
by. The corner table is exact for the corners alone, in either metric, and never above a
state's distance; the larger of its values for a state and for the state's inverse (as far
from solved) is a bound that still moves there. :func:`corner_bound` reads it for a batch
of sticker states in compiled code, without building cubie arrays: a fraction of a network
call per state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import numba
import numpy as np

from ...harness import CORNER_COLOURS, CORNER_FACELETS, SOLVED
from .coords import N_TWIST
from .tables import load


def _corner_lookup() -> np.ndarray:
    """(216,) colour triple ``36 a + 6 b + c``, read from the U or D sticker clockwise ->
    the corner piece with those colours (-1 for none)."""
    table = np.full(6 * 6 * 6, -1, dtype=np.int64)
    for piece, (a, b, c) in enumerate(CORNER_COLOURS.astype(np.int64)):
        table[36 * a + 6 * b + c] = piece
    return table


_FACELETS: Final = np.ascontiguousarray(CORNER_FACELETS, dtype=np.int64)  # (8, 3)
_LOOKUP: Final = _corner_lookup()


@lru_cache(maxsize=2)
def corner_table(metric: str) -> np.ndarray:
    """The corner table of ``metric`` (88 MB), built the first time (seconds) and read from
    ``$CUBEBENCH_HOME/cache/optimal`` after, checked against a correct build's hash."""
    (table,) = load("corners", metric)
    return table


def prepare_corner_bound(metric: str) -> None:
    """Load the table and compile the lookup, so that neither happens inside a timed solve."""
    corner_bound(SOLVED[:, None], metric)


def corner_bound(states: np.ndarray, metric: str) -> np.ndarray:
    """(54, N) sticker states -> (N,) float32: the corner table's distance of each state or
    of its inverse, whichever is larger; a lower bound of its distance in ``metric``."""
    states = np.ascontiguousarray(states, dtype=np.uint8)
    out = np.empty(states.shape[1], np.float32)
    return _corner_bound(states, corner_table(metric), _FACELETS, _LOOKUP, N_TWIST, out)


@numba.njit(cache=True)
def _corner_bound(states, table, facelets, lookup, twists, out):  # pragma: no cover
    cp, co = np.empty(8, np.int64), np.empty(8, np.int64)
    icp, ico = np.empty(8, np.int64), np.empty(8, np.int64)
    for j in range(states.shape[1]):
        for i in range(8):
            a = states[facelets[i, 0], j]
            b = states[facelets[i, 1], j]
            c = states[facelets[i, 2], j]
            if a == 0 or a == 3:  # read from the U or D sticker: the corner's twist
                co[i], cp[i] = 0, lookup[36 * a + 6 * b + c]
            elif b == 0 or b == 3:
                co[i], cp[i] = 1, lookup[36 * b + 6 * c + a]
            else:
                co[i], cp[i] = 2, lookup[36 * c + 6 * a + b]
        for i in range(8):  # the inverse holds piece s in slot p, twisted back, where p is in s
            icp[cp[i]], ico[cp[i]] = i, (3 - co[i]) % 3
        twist = inverse_twist = 0
        for i in range(7):
            twist, inverse_twist = twist * 3 + co[i], inverse_twist * 3 + ico[i]
        rank = inverse_rank = 0
        for i in range(8):  # Lehmer codes, as :func:`.coords.cperm_of`
            smaller = inverse_smaller = 0
            for k in range(i + 1, 8):
                if cp[k] < cp[i]:
                    smaller += 1
                if icp[k] < icp[i]:
                    inverse_smaller += 1
            rank = rank * (8 - i) + smaller
            inverse_rank = inverse_rank * (8 - i) + inverse_smaller
        out[j] = max(table[rank * twists + twist], table[inverse_rank * twists + inverse_twist])
    return out
