"""Iterative-deepening A* over Kociemba's coordinates, compiled with numba.

One call of :func:`search` walks the depth-first tree of one cost bound: canonical move
sequences (no face twice in a row in face turns, no undone or tripled quarter turn in quarter
turns, opposite faces in one order), pruned wherever depth + lower bound exceeds the bound.
The walk keeps its whole position in arrays the caller owns, so it can stop after a number
of nodes and continue from where it stopped: the caller checks its clock between calls.

A node's lower bound is the largest of one axis table looked up on all three axes and, with
the large tables, the corner table. The axis table is, by ``mode``: ``SMALL``, the two small
tables (twist x slice, flip x slice); ``LARGE``, Kociemba's symmetry-reduced phase-1 x 24
table (flip x sorted slice by class, x twist: :mod:`.flipslice`). Each lookup that already
prunes the node skips the rest.

Coordinates of a node, one row of ``coords`` (depth + 1, 10): twist, flip and sorted slice of
the image on each of the three axes (U-D, R-L, F-B), then the corner permutation.
"""

from __future__ import annotations

from typing import Final

import numba
import numpy as np

from .coords import N_FLIP, N_SORTED, N_TWIST

SMALL: Final = 0
LARGE: Final = 1

EXHAUSTED: Final = 0
"""No solution of exactly this bound's length (with the lower bounds, none shorter either)."""
CANDIDATE: Final = 1
"""``path[:bound]`` reaches a state every table calls solved; the caller checks the cube."""
PAUSED: Final = 2
"""The node budget ran out; call again with the same arrays to continue."""


@numba.njit(cache=True, inline="always")
def _child(src, dst, m, tw_mv, fl_mv, so_mv, cp_mv, axis_moves):  # pragma: no cover
    for a in range(3):
        am = axis_moves[a, m]
        dst[3 * a] = tw_mv[src[3 * a], am]
        dst[3 * a + 1] = fl_mv[src[3 * a + 1], am]
        dst[3 * a + 2] = so_mv[src[3 * a + 2], am]
    dst[9] = cp_mv[src[9], m]


@numba.njit(cache=True)
def heuristic(row, tables):  # pragma: no cover
    """Lower bound of one node's distance.

    Besides the largest table value, a cube whose three axis values are all ``h > 0`` is at
    least ``h + 1`` from solved: an optimal solution's last move turns a face of some axis,
    which keeps that axis's subgroup, so the state before it lies in the subgroup and the
    cube's distance is one more than its distance to that subgroup. In general the distance
    is at least the smallest axis value plus one (Kociemba's optimal solver uses the tie).
    """
    top, low = 0, 99
    for a in range(3):
        v = _axis_value(row, a, tables)
        top = max(top, v)
        low = min(low, v)
    if low > 0:
        top = max(top, low + 1)
    if tables[5] == LARGE:
        top = max(top, np.int64(tables[8][row[9] * N_TWIST + row[0]]))
    return top


@numba.njit(cache=True)
def _allowed(path, d, m, qtm, follow):  # pragma: no cover
    if d == 0:
        return True
    p = path[d - 1]
    if not qtm:
        return follow[p, m]
    fm, fp = m // 3, p // 3
    if fm == fp:  # the same face: a second quarter turn the same way, never a third
        return m == p and (d < 2 or path[d - 2] != p)
    return not (fm == (fp + 3) % 6 and fm < fp)


@numba.njit(cache=True, inline="always")
def _axis_value(row, a, tables):  # pragma: no cover
    if tables[5] == LARGE:
        y = row[3 * a + 1] * N_SORTED + row[3 * a + 2]
        i = np.int64(tables[10][y]) * N_TWIST + tables[12][row[3 * a], tables[11][y]]
        return np.int64((tables[9][i >> 1] >> ((i & 1) << 2)) & 15)
    cut = row[3 * a + 2] // 24  # the slice, the order of its edges aside
    return np.int64(
        max(tables[6][cut * N_TWIST + row[3 * a]], tables[7][cut * N_FLIP + row[3 * a + 1]])
    )


@numba.njit(cache=True)
def _expand(d, src, path, moves, qtm, follow, walk, tables, room):  # pragma: no cover
    """Every allowed child of the node at depth ``d``, with its bound, into ``walk``'s rows
    for ``d``. ``room``: the moves left to the bound after a child's; a child whose bound
    exceeds it is pruned, and once one table proves that, the others are not read.

    The tables are read table by table over all children, so the cache misses of the
    children's reads overlap instead of waiting one after another. A pruned child's bound
    may be partial; it only has to exceed ``room``, which is all the walk asks of it.
    """
    kids, kid_move, kid_h, count, low_of = walk
    tw_mv, fl_mv, so_mv, cp_mv, axis_moves, mode = tables[:6]
    corners = tables[8]
    low = low_of[d]
    n = 0
    for m in moves:
        if _allowed(path, d, m, qtm, follow):
            _child(src, kids[d, n], m, tw_mv, fl_mv, so_mv, cp_mv, axis_moves)
            kid_move[d, n] = m
            n += 1
    for j in range(n):
        low[j] = 99
        kid_h[d, j] = corners[kids[d, j, 9] * N_TWIST + kids[d, j, 0]] if mode == LARGE else 0
    for a in range(3):
        for j in range(n):
            if kid_h[d, j] <= room:
                v = _axis_value(kids[d, j], a, tables)
                kid_h[d, j] = max(kid_h[d, j], v)
                low[j] = min(low[j], v)
    for j in range(n):  # the tie rule of :func:`heuristic`, where all three were read
        if low[j] < 99 and low[j] > 0 and kid_h[d, j] <= room:
            kid_h[d, j] = max(kid_h[d, j], low[j] + 1)
    count[d] = n
    return n


@numba.njit(cache=True)
def search(bound, budget, root, walk, next_kid, path, ptr, moves, qtm, follow, tables):
    """Continue the walk of ``bound``; returns ``(status, nodes generated)``.

    Start a bound with ``ptr[0] = -1``: the walk expands ``root`` (a coordinates row) first.
    """
    nodes = 0
    kids, kid_move, kid_h, count, _ = walk
    if ptr[0] < 0:
        nodes += _expand(0, root, path, moves, qtm, follow, walk, tables, bound - 1)
        ptr[0], next_kid[0] = 0, 0
    while True:
        d = ptr[0]
        i = next_kid[d]
        if i >= count[d]:
            if d == 0:
                return EXHAUSTED, nodes
            ptr[0] = d - 1
            continue
        next_kid[d] = i + 1
        room = bound - d - 1
        if kid_h[d, i] > room:
            continue
        path[d] = kid_move[d, i]
        if room == 0:
            return CANDIDATE, nodes  # h == 0; the walk goes on from the next sibling
        if nodes >= budget:
            next_kid[d] = i
            return PAUSED, nodes
        nodes += _expand(d + 1, kids[d, i], path, moves, qtm, follow, walk, tables, room - 1)
        ptr[0], next_kid[d + 1] = d + 1, 0


def new_walk(max_depth: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray, np.ndarray]:
    """Fresh arrays for a walk up to ``max_depth``: the children of each depth (their
    coordinates, moves, bounds, count and smallest axis value), the next child to visit, the
    path and the depth."""
    walk = (
        np.zeros((max_depth + 1, 18, 10), np.int64),
        np.zeros((max_depth + 1, 18), np.int64),
        np.zeros((max_depth + 1, 18), np.int64),
        np.zeros(max_depth + 1, np.int64),
        np.zeros((max_depth + 1, 18), np.int64),  # the smallest axis value of each child
    )
    return (
        walk,
        np.zeros(max_depth + 1, np.int64),
        np.zeros(max_depth + 1, np.int64),
        np.full(1, -1, np.int64),
    )
