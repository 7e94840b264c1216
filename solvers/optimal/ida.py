"""Iterative-deepening A* over Kociemba's coordinates, compiled with numba.

One call of :func:`search` walks the depth-first tree of one cost bound: canonical move
sequences (no face twice in a row in face turns; in quarter turns a half turn only as two
clockwise turns; opposite faces in one order), pruned where depth + bound exceeds the bound.
The walk keeps its whole position in arrays the caller owns, so it can stop after a number
of nodes and continue from where it stopped: the caller checks its clock between calls.

A node's lower bound is the largest of one axis table looked up on all three axes and, with
the large tables, the corner table. The axis table is, by ``mode``: ``SMALL``, the two small
tables (twist x slice, flip x slice); ``LARGE``, Kociemba's symmetry-reduced phase-1 x 24
table (flip x sorted slice by class, x twist: :mod:`.flipslice`); ``XLARGE``, the same with
the corner permutation's parity beside the twist (``tables[12]`` gives a node's parity from
its corner permutation; an inverse and every axis image share the cube's parity). A child
the state's own lookups leave standing is then looked up as its inverse, on all three axes:
the inverse is as far from solved, and its values differ from the state's often enough to
halve the nodes of a random-state solve. The lookups go an axis at a time over the children
still standing, so a lookup that already prunes a child skips the rest of its reads, and the
inverse's value on the axis of the move that made a child is its parent's, never read.

The inverse's values also narrow a node's next moves. A turn of axis ``a`` keeps that axis's
subgroup, so where the inverse's value on axis ``a`` is all the room left, no solution within
the bound starts with such a turn (it would take the inverse into the subgroup a move early);
the node's children on that axis are not generated (``kid_ban``, :func:`banned`). Rokicki's
nxopt and nissy's H48 use the same argument. Only subtrees without a solution are skipped, so
the walk meets the same first solution.

``inverse``: the (18, 40) rows that relabel an inverse's pieces as a move is played
(:func:`.coords.premove_table`), and the lookups from a row to its coordinates.

Coordinates of a node, one row of ``coords`` (13,): twist, flip and sorted slice of the
image on each of the three axes (U-D, R-L, F-B), the corner permutation, then the corners'
layer split (``csep``, :mod:`..patterns.dense`) of each axis image. The walk keeps the
children of depth ``d`` in rows ``18 d`` to ``18 d + 17`` of a (depth + 1) * 18 by 13 array,
and their inverses' cubie rows three a child, with their inverses' values on each axis.
"""

from __future__ import annotations

from typing import Final

import numba
import numpy as np

from ..patterns.coords import INVERSE_WIDTH, N_SORTED, N_TWIST
from .lookups import (
    DENSE,
    LARGE,
    SMALL,
    XLARGE,
    banned,
    cubie_coordinates,
    cubie_csep,
    fetch,
    locate,
    of_parity,
    pack,
    pair_at,
    premove,
    small_value,
    tight,
    unpack,
)
from .prefetch import prefetch

EXHAUSTED: Final = 0
"""No solution of exactly this bound's length (with the lower bounds, none shorter either)."""
CANDIDATE: Final = 1
"""``path[:bound]`` reaches a state every table calls solved; the caller checks the cube."""
PAUSED: Final = 2
"""The node budget ran out; call again with the same arrays to continue."""
ROW: Final = 13
"""Columns of a node's coordinates row."""


@numba.njit(cache=True, inline="always")
def _child(src, s, dst, t, m, a, tw_mv, fl_mv, so_mv, cs_mv, axis_moves):  # pragma: no cover
    """Row ``t`` of ``dst``, axis ``a``'s columns: the coordinates of row ``s`` of ``src``'s
    image on that axis after move ``m``."""
    am = axis_moves[a, m]
    dst[t, 3 * a] = tw_mv[src[s, 3 * a], am]
    dst[t, 3 * a + 1] = fl_mv[src[s, 3 * a + 1], am]
    dst[t, 3 * a + 2] = so_mv[src[s, 3 * a + 2], am]
    dst[t, 10 + a] = cs_mv[src[s, 10 + a], am]


@numba.njit(cache=True, inline="always")
def _parity(kids, t, parity, mode):  # pragma: no cover
    """Row ``t``'s corner parity with the xlarge tables; the others' values ignore it."""
    return parity[kids[t, 9]] if mode == XLARGE else 0


@numba.njit(cache=True)
def _allowed(path, d, m, qtm, follow):  # pragma: no cover
    if d == 0:
        return True
    p = path[d - 1]
    if not qtm:
        return follow[p, m]
    fm, fp = m // 3, p // 3
    if fm == fp:  # the same face: a second clockwise turn (U' U' is U U), never a third
        return m == p and m % 3 == 0 and (d < 2 or path[d - 2] != p)
    return not (fm == (fp + 3) % 6 and fm < fp)


@numba.njit(cache=True, inline="always")
def _expand(  # pragma: no cover
    d,
    src,
    s,
    src_inv,
    si,
    src_c,
    src_ban,
    src_pair,
    path,
    moves,
    qtm,
    follow,
    walk,
    tables,
    inverse,
    room,
):
    """Every allowed child of the node at depth ``d``, with its bound, into ``walk``'s rows
    for ``d``. The node is row ``s`` of ``src`` (coordinates); rows ``si`` to ``si + 2`` of
    ``src_inv`` are the cubie rows of its inverse on each axis, ``src_pair`` (3,) the axis
    table's values of that inverse (:func:`.lookups.inverse_pairs`), and ``src_c`` its
    corner value or a bound on it from above. ``room``: the moves left to the bound after a
    child's; a child whose bound exceeds it is pruned.

    The lookups go an axis at a time, each over the children still standing: a child pruned
    by one value is not read on the next axis. Nearly every child of a deep node is pruned
    by its first or second value, and a read that lands anywhere in gigabytes costs more than
    all the arithmetic of a child, so this reads about half the entries that reading every
    axis of every child would. Within an axis, the reads of all the children are asked for
    (:mod:`.prefetch`) before any is made, so their cache misses overlap. The corner table is
    read beside the first axis, and only where it can prune: a move changes its value by at
    most one, so where ``src_c + 1 <= room`` it cannot. A pruned child's bound may be partial;
    it only has to exceed ``room``, which is all the walk asks of it.

    A child that survives its own lookups is looked up as its inverse. Its inverse's value on
    the axis of the move that made it is the node's (the move acts on the inverse from the
    left, and a turn of an axis keeps that axis's coset; nxopt uses the same), so it is not
    read, and the inverse's cubie rows on the other two axes are computed as they are needed.
    """
    kids, kid_move, kid_h, count, low, kid_inv, kid_c, inv_row, kid_ban, kid_pair, at, only = walk
    tw_mv, fl_mv, so_mv, cp_mv, axis_moves, mode = tables[:6]
    corners, words, parity, move_axis = tables[8], tables[10], tables[12], tables[13]
    cs_mv = tables[17]
    far_words = mode == LARGE or mode == XLARGE  # the dense table's words stay in the cache
    pre = inverse[0]
    read_c = mode != SMALL and src_c + 1 > room
    # A child's own value at most the dense table's base cannot prune it, nor (the tie rule)
    # raise its bound past ``room``, unless ``room`` is at most the base (the inverse's: + 1).
    near = room <= tables[18]
    # A dense read is one cache miss: an axis at a time. The others' are two (class word,
    # entry), whose overlap is worth more than a pruned child's saved reads: every axis at once.
    lazy = mode == DENSE
    # the corner permutation names the corner entry and the parity: else a survivor's only
    early_cp = read_c or mode == XLARGE
    base = d * 18  # depth d's rows of kids
    n = 0
    for m in moves:  # ``only[d]``: the one move allowed at depth d (a task's prefix), or -1
        if (only[d] < 0 or m == only[d]) and _allowed(path, d, m, qtm, follow):
            if banned(src_ban, m, move_axis):
                continue
            t = base + n
            for a in range(1 if mode == DENSE else 3):  # the dense walk's others: below
                _child(src, s, kids, t, m, a, tw_mv, fl_mv, so_mv, cs_mv, axis_moves)
            if early_cp:
                kids[t, 9] = cp_mv[src[s, 9], m]
            kid_move[d, n] = m
            n += 1
    if read_c:
        for j in range(n):
            kid_c[d, j] = kids[base + j, 9] * N_TWIST + kids[base + j, 0]
        for j in range(n):
            prefetch(corners, kid_c[d, j])
    if far_words:
        for j in range(n):
            for a in range(3):
                prefetch(words, kids[base + j, 3 * a + 1] * N_SORTED + kids[base + j, 3 * a + 2])
    for a in range(3):  # the children's own values, an axis at a time
        if lazy or a == 0:  # the other tables: every axis at once (below)
            for b in range(a, a + 1 if lazy else 3):
                for j in range(n):
                    if a == 0 or kid_h[d, j] <= room:
                        t = base + j
                        tw, fl, so = kids[t, 3 * b], kids[t, 3 * b + 1], kids[t, 3 * b + 2]
                        at[b, j] = locate(tw, fl, so, kids[t, 10 + b], tables)
                for j in range(n):  # the prefetches back to back, so that their misses overlap
                    if a == 0 or kid_h[d, j] <= room:
                        fetch(at[b, j], tables)
        if a == 0 and lazy:  # arithmetic while the first reads are under way
            for j in range(n):
                for b in range(1, 3):
                    m = kid_move[d, j]
                    _child(src, s, kids, base + j, m, b, tw_mv, fl_mv, so_mv, cs_mv, axis_moves)
        for j in range(n):
            t = base + j
            if a == 0:
                c = np.int64(corners[kid_c[d, j]]) if read_c else src_c + 1
                kid_c[d, j] = c
                kid_h[d, j] = c if read_c else 0
                low[d, j] = 99
            if kid_h[d, j] <= room:
                tw, fl, so = kids[t, 3 * a], kids[t, 3 * a + 1], kids[t, 3 * a + 2]
                even, odd = pair_at(at[a, j], tw, fl, so, tables, near)
                v, lv = of_parity(even, odd, _parity(kids, t, parity, mode))
                kid_h[d, j] = max(kid_h[d, j], v)
                low[d, j] = min(low[d, j], lv)
    _tie(d, n, low, kid_h, room)
    for j in range(n):  # the inverse's value on the move's axis: the node's
        if kid_h[d, j] <= room:
            a = move_axis[kid_move[d, j]]
            even, odd = unpack(src_pair[a])
            if even < 0 and room <= tables[18] + 1:  # not read where it could not matter
                tw, fl, so = cubie_coordinates(src_inv, si + a, inverse)
                even = odd = small_value(tw, fl, so, tables)
            kid_pair[d, j, a] = pack(even, odd)
            v, lv = of_parity(even, odd, _parity(kids, base + j, parity, mode))
            kid_h[d, j] = max(kid_h[d, j], v)
            low[d, j] = lv
    inv_near = room <= tables[18] + 1
    for k in range(1, 3):  # the other two axes: rows, coordinates, then the reads
        if lazy or k == 1:
            for q in range(k, k + 1 if lazy else 3):
                for j in range(n):
                    if kid_h[d, j] <= room:
                        m = kid_move[d, j]
                        a = (move_axis[m] + q) % 3
                        r = (base + j) * 3 + a
                        premove(src_inv, si + a, kid_inv, r, pre[axis_moves[a, m]])
                        tw, fl, so = cubie_coordinates(kid_inv, r, inverse)
                        cs = cubie_csep(kid_inv, r, inverse) if mode == DENSE else np.int64(0)
                        c0 = 4 * q - 4
                        inv_row[j, c0], inv_row[j, c0 + 1], inv_row[j, c0 + 2] = tw, fl, so
                        inv_row[j, c0 + 3] = cs
                        if far_words:
                            prefetch(words, fl * N_SORTED + so)
            for q in range(k, k + 1 if lazy else 3):
                c0 = 4 * q - 4
                for j in range(n):
                    if kid_h[d, j] <= room:
                        tw, fl, so = inv_row[j, c0], inv_row[j, c0 + 1], inv_row[j, c0 + 2]
                        at[q, j] = locate(tw, fl, so, inv_row[j, c0 + 3], tables)
                for j in range(n):
                    if kid_h[d, j] <= room:
                        fetch(at[q, j], tables)
        c0 = 4 * k - 4
        for j in range(n):
            if kid_h[d, j] <= room:
                a = (move_axis[kid_move[d, j]] + k) % 3
                tw, fl, so = inv_row[j, c0], inv_row[j, c0 + 1], inv_row[j, c0 + 2]
                even, odd = pair_at(at[k, j], tw, fl, so, tables, inv_near)
                kid_pair[d, j, a] = pack(even, odd)
                v, lv = of_parity(even, odd, _parity(kids, base + j, parity, mode))
                kid_h[d, j] = max(kid_h[d, j], v)
                low[d, j] = min(low[d, j], lv)
    _tie(d, n, low, kid_h, room)
    for j in range(n):  # a survivor: its last row, and the moves its inverse rules out next
        kid_ban[d, j] = 0
        if kid_h[d, j] <= room:
            m = kid_move[d, j]
            a = move_axis[m]
            premove(src_inv, si + a, kid_inv, (base + j) * 3 + a, pre[axis_moves[a, m]])
            if not early_cp:
                kids[base + j, 9] = cp_mv[src[s, 9], m]
            for a in range(3):
                even, odd = unpack(kid_pair[d, j, a])
                v, lv = of_parity(even, odd, _parity(kids, base + j, parity, mode))
                kid_ban[d, j] |= tight(v, lv, room, a)
    count[d] = n
    return n


@numba.njit(cache=True, inline="always")
def _tie(d, n, low, kid_h, room):  # pragma: no cover
    for j in range(n):  # the tie rule of :func:`.lookups.heuristic`, where all three were read
        if low[d, j] < 99 and low[d, j] > 0 and kid_h[d, j] <= room:
            kid_h[d, j] = max(kid_h[d, j], low[d, j] + 1)


# Compiled without numba's reference counting (``_nrt=False``): the walk allocates nothing,
# and every array it reads is one its caller holds for the whole call. With the counting,
# each array handed to a function or taken from a tuple inside the loop has its count
# changed by an atomic instruction, and an atomic instruction waits for every memory access
# in flight, which undoes much of what the prefetches overlap: the walk took 1.5 times as
# long.
@numba.njit(cache=True, _nrt=False)
def search(
    bound,
    budget,
    root,
    root_inv,
    root_pair,
    walk,
    next_kid,
    path,
    ptr,
    moves,
    qtm,
    follow,
    tables,
    inverse,
):
    """Continue the walk of ``bound``; returns ``(status, nodes generated)``.

    Start a bound with ``ptr[0] = -1``: the walk expands ``root`` (a coordinates row, with
    ``root_inv`` the cubie rows of its inverse and ``root_pair`` their table values,
    :func:`.lookups.inverse_pairs`) first.
    """
    nodes = 0
    kids, kid_move, kid_h, count, _, kid_inv, kid_c, _, kid_ban, kid_pair, _, _ = walk
    if ptr[0] < 0:  # arguments spelled out at both calls: numba inlines no call with *args
        nodes += _expand(
            0,
            root.reshape((1, ROW)),
            0,
            root_inv,
            0,
            99,
            0,
            root_pair,
            path,
            moves,
            qtm,
            follow,
            walk,
            tables,
            inverse,
            bound - 1,
        )
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
        t = d * 18 + i
        nodes += _expand(
            d + 1,
            kids,
            t,
            kid_inv,
            3 * t,
            kid_c[d, i],
            kid_ban[d, i],
            kid_pair[d, i],
            path,
            moves,
            qtm,
            follow,
            walk,
            tables,
            inverse,
            room - 1,
        )
        ptr[0], next_kid[d + 1] = d + 1, 0


def new_walk(max_depth: int) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray, np.ndarray]:
    """Fresh arrays for a walk up to ``max_depth``: the children of each depth (coordinates,
    moves, bounds, count, smallest axis value, inverse's rows, corner value, bans, ...) and
    the moves a task fixes (:mod:`.tasks`), the next child to visit, the path and the depth."""
    walk = (
        np.zeros(((max_depth + 1) * 18, ROW), np.int64),  # row depth * 18 + child
        np.zeros((max_depth + 1, 18), np.int64),
        np.zeros((max_depth + 1, 18), np.int64),
        np.zeros(max_depth + 1, np.int64),
        np.zeros((max_depth + 1, 18), np.int64),  # the smallest axis value of each child
        np.zeros(((max_depth + 1) * 54, INVERSE_WIDTH), np.uint8),  # inverse's rows, 3 a child
        np.zeros((max_depth + 1, 18), np.int64),  # corner value (or a bound from above)
        np.zeros((18, 8), np.int64),  # scratch: two axes' inverse coordinates of each child
        np.zeros((max_depth + 1, 18), np.int64),  # the moves a child's next move may not be
        np.zeros((max_depth + 1, 18, 3), np.int64),  # its inverse's values by axis, a pair each
        np.zeros((3, 18), np.int64),  # scratch: the entries of a depth's children by axis
        np.full(max_depth + 1, -1, np.int64),  # the one move allowed at a depth, or -1: any
    )
    return (
        walk,
        np.zeros(max_depth + 1, np.int64),
        np.zeros(max_depth + 1, np.int64),
        np.full(1, -1, np.int64),
    )
