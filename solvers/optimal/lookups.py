"""What a node's lower bound reads: the axis tables' values of a cube and of its inverse,
the tie rule, and the moves a tight value rules out next (numba, for :mod:`.ida`).

A value comes from one axis image of a cube (twist, flip and sorted slice, :mod:`.coords`).
``tables`` is the solver's tuple: move tables, ``mode``, the small tables, the corner table,
the axis table, the class words, the twist conjugation, the parity of a corner permutation
and the axis each move turns. ``SMALL``: the two small tables (twist x slice, flip x slice);
``LARGE``: Kociemba's symmetry-reduced phase-1 x 24 table (flip x sorted slice by class, x
twist: :mod:`..patterns.flipslice`); ``XLARGE``: the same with the corner permutation's
parity beside the twist; ``DENSE``: Rokicki's coset table of corners by layer and twist x flip
x slice places (:mod:`..patterns.dense`), two bits an entry, where a 0 (a distance at most
the table's base) falls back on the small tables.

``DENSE`` reads a node's ``csep`` on each axis (columns 10 to 12 of its row) and the tables
after the parity and move axis: the edge coordinate's conjugation tables (flip, slice and
the flips the slice places add), ``csep``'s move table and the base. Its class words are
the corner coordinate's (600 KB, in the cache), so a lookup misses the cache once.
"""

from __future__ import annotations

from typing import Final

import numba
import numpy as np

from ..patterns.coords import N_FLIP, N_SLICE, N_SORTED, N_TWIST
from ..patterns.flipslice import SYM_BITS, SYM_MASK
from .prefetch import prefetch

SMALL: Final = 0
LARGE: Final = 1
XLARGE: Final = 2
DENSE: Final = 3


@numba.njit(cache=True)
def heuristic(row, tables):  # pragma: no cover
    """Lower bound of one node's distance.

    Besides the largest table value, a cube whose three axis values are all ``h > 0`` is at
    least ``h + 1`` from solved: an optimal solution's last move turns a face of some axis,
    which keeps that axis's subgroup, so the state before it lies in the subgroup and the
    cube's distance is one more than its distance to that subgroup. In general the distance
    is at least the smallest axis value plus one (Kociemba's optimal solver uses the tie).

    With the parity tables the subgroup's even half is what a value measures, and a last
    quarter turn leaves the state before it in the odd half, so the tie takes the distance
    to the whole subgroup: the smaller of an entry's two parities (:func:`value`).
    """
    top, low = 0, 99
    for a in range(3):
        v, lv = axis_value(row, a, tables)
        top = max(top, v)
        low = min(low, lv)
    if low > 0:
        top = max(top, low + 1)
    if tables[5] != SMALL:
        top = max(top, np.int64(tables[8][row[9] * N_TWIST + row[0]]))
    return top


@numba.njit(cache=True, inline="always")
def banned(ban, m, move_axis):  # pragma: no cover
    """Whether ``ban`` (:func:`_expand`) rules out move ``m`` as a node's next move: bit
    ``a`` every turn of axis ``a``, bit ``3 + a`` its half turns (in face turns)."""
    a = move_axis[m]
    return ((ban >> a) & 1) == 1 or (((ban >> (3 + a)) & 1) == 1 and m % 3 == 1)


@numba.njit(cache=True, inline="always")
def tight(v, lv, room, a):  # pragma: no cover
    """The bits of :func:`banned` a value on axis ``a`` sets where it is all the ``room``
    left: every turn of the axis when the whole subgroup is that far (``lv``), its half
    turns when only the parity tables' half is (``v``; a half turn keeps the parity)."""
    if lv == room:
        return 1 << a
    if v == room:
        return 8 << a
    return 0


@numba.njit(cache=True, inline="always")
def dense_entry(tw, fl, so, cs, tables):  # pragma: no cover
    """Where the dense table keeps a coordinate's value: its corner class's row and the edge
    coordinate conjugated by the symmetry that takes the corners to the class's
    representative (:func:`..patterns.dense.conjugate_edge`)."""
    w = np.int64(tables[10][cs * N_TWIST + tw])  # class << 4 | symmetry
    k, sl = w & 15, so // 24
    edge = (tables[14][fl, k] ^ tables[16][sl, k]) * N_SLICE + tables[15][sl, k]
    return (w >> 4) * (N_FLIP * N_SLICE) + edge


@numba.njit(cache=True, inline="always")
def small_value(tw, fl, so, tables):  # pragma: no cover
    cut = so // 24  # the slice, the order of its edges aside
    return np.int64(max(tables[6][cut * N_TWIST + tw], tables[7][cut * N_FLIP + fl]))


@numba.njit(cache=True, inline="always")
def entry(tw, fl, so, tables):  # pragma: no cover
    """Where the large tables keep a coordinate's value: its symmetry class's row (from the
    class word of flip x sorted slice) and the twist conjugated by the class's symmetry."""
    w = np.int64(tables[10][fl * N_SORTED + so])  # class << SYM_BITS | symmetry
    return (w >> SYM_BITS) * N_TWIST + tables[11][tw, w & SYM_MASK]


@numba.njit(cache=True, inline="always")
def locate(tw, fl, so, cs, tables):  # pragma: no cover
    """Where the axis table keeps a coordinate's value (0 with the small tables, which stay
    in the cache): computed once a lookup, for its prefetch (:func:`fetch`) and its read
    (:func:`pair_at`)."""
    if tables[5] == DENSE:
        return dense_entry(tw, fl, so, cs, tables)
    if tables[5] != SMALL:
        return entry(tw, fl, so, tables)
    return np.int64(0)


@numba.njit(cache=True, inline="always")
def fetch(i, tables):  # pragma: no cover
    """Prefetch the line of the axis table that holds entry ``i`` (:func:`locate`)."""
    if tables[5] == DENSE:
        prefetch(tables[9], i >> 2)
    elif tables[5] == XLARGE:
        prefetch(tables[9], i)
    elif tables[5] == LARGE:
        prefetch(tables[9], i >> 1)


@numba.njit(cache=True, inline="always")
def pair_at(i, tw, fl, so, tables, near=True):  # pragma: no cover
    """The axis table's values of a coordinate for an even and an odd cube, from its entry
    ``i`` (:func:`locate`): the parity tables keep both in a byte; the others' one value
    serves both. A dense entry of 0 (a distance at most the table's base) reads the small
    tables instead, unless ``near`` is false: where every value at most the base is too small
    to matter, -1 stands for it (no bound, and no tie: :func:`heuristic`) and the read is
    saved."""
    if tables[5] == DENSE:
        code = np.int64((tables[9][i >> 2] >> ((i & 3) << 1)) & 3)
        if code:
            return tables[18] + code, tables[18] + code
        v = small_value(tw, fl, so, tables) if near else np.int64(-1)
        return v, v
    if tables[5] == XLARGE:
        both = np.int64(tables[9][i])  # even parity low, odd high
        return both & 15, both >> 4
    if tables[5] == LARGE:
        v = np.int64((tables[9][i >> 1] >> ((i & 1) << 2)) & 15)
        return v, v
    v = small_value(tw, fl, so, tables)
    return v, v


@numba.njit(cache=True, inline="always")
def pair(tw, fl, so, cs, tables):  # pragma: no cover
    """The axis table's values of a coordinate for an even and an odd cube."""
    return pair_at(locate(tw, fl, so, cs, tables), tw, fl, so, tables)


@numba.njit(cache=True, inline="always")
def of_parity(even, odd, par):  # pragma: no cover
    """A cube's value from :func:`pair`'s two, and the value the tie rule of
    :func:`heuristic` may use: the smaller, the distance to the whole subgroup."""
    return (odd if par else even), min(even, odd)


@numba.njit(cache=True, inline="always")
def value(tw, fl, so, cs, par, tables):  # pragma: no cover
    """The axis table's value of a coordinate for a cube of parity ``par``, and the tie
    rule's (:func:`of_parity`)."""
    even, odd = pair(tw, fl, so, cs, tables)
    return of_parity(even, odd, par)


@numba.njit(cache=True, inline="always")
def axis_value(row, a, tables):  # pragma: no cover
    return value(
        row[3 * a], row[3 * a + 1], row[3 * a + 2], row[10 + a], tables[12][row[9]], tables
    )


@numba.njit(cache=True, inline="always")
def premove(src, s, dst, t, z):  # pragma: no cover
    """Row ``t`` of ``dst`` the cubie row ``z src[s]``: row ``s`` of ``src`` with its pieces
    relabelled by ``z`` (rows of 40: corner permutation, twist, edge permutation, flip)."""
    for i in range(8):
        p = src[s, i]
        dst[t, i] = z[p]
        o = src[s, 8 + i] + z[8 + p]
        dst[t, 8 + i] = o - 3 if o >= 3 else o
    for i in range(12):
        p = src[s, 16 + i]
        dst[t, 16 + i] = z[16 + p]
        dst[t, 28 + i] = src[s, 28 + i] ^ z[28 + p]


@numba.njit(cache=True, inline="always")
def cubie_coordinates(c, r, inverse):  # pragma: no cover
    """Row ``r`` of the cubie rows ``c``: its twist, flip and sorted slice."""
    tw, fl, mask, code = 0, 0, 0, 0
    for i in range(7):
        tw = tw * 3 + c[r, 8 + i]
    for i in range(11):
        fl = fl * 2 + c[r, 28 + i]
    for i in range(12):
        e = c[r, 16 + i]
        if e >= 8:  # a U-D slice edge
            mask |= 1 << i
            code = code * 4 + e - 8
    return np.int64(tw), np.int64(fl), np.int64(inverse[1][mask]) * 24 + inverse[2][code]


@numba.njit(cache=True, inline="always")
def cubie_csep(c, r, inverse):  # pragma: no cover
    """Row ``r`` of the cubie rows ``c``: which four corner slots hold U corners."""
    mask = 0
    for i in range(8):
        if c[r, i] < 4:
            mask |= 1 << i
    return np.int64(inverse[3][mask])


@numba.njit(cache=True, inline="always")
def pack(even, odd):  # pragma: no cover
    """A pair of values (:func:`pair_at`) in one integer, -1 for a value not read."""
    return even | (odd << 8) if even >= 0 else np.int64(-1)


@numba.njit(cache=True, inline="always")
def unpack(p):  # pragma: no cover
    """The pair :func:`pack` keeps: even, odd."""
    if p < 0:
        return np.int64(-1), np.int64(-1)
    return p & 255, p >> 8


@numba.njit(cache=True)
def inverse_pairs(rows, inverse, tables):  # pragma: no cover
    """(3,) int64: the pairs (:func:`pair`, :func:`pack`) of the axis table's values
    of the inverse whose cubie rows on each axis are ``rows`` (3, 40): what a walk's root
    hands its children, which keep the value on the axis of the move that made them."""
    out = np.empty(3, np.int64)
    for a in range(3):
        tw, fl, so = cubie_coordinates(rows, a, inverse)
        cs = cubie_csep(rows, a, inverse) if tables[5] == DENSE else np.int64(0)
        even, odd = pair(tw, fl, so, cs, tables)
        out[a] = pack(even, odd)
    return out
