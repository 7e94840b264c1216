"""The ``dense`` table: corners by layer and twist, by symmetry class, x edge flip x slice
places, two bits an entry (the coset space of Rokicki's nxopt and vcube's "112" table).

Its goal for the U-D axis is the set of cubes whose four U corners stand in the U layer,
every corner and edge is oriented (corners by their U/D sticker, edges as in Kociemba's
phase 1) and the four U-D slice edges stand in the slice. U and D turns keep that set, so the
search's tie rule and move bans hold for it as for Kociemba's table. Coordinates:

- ``corner`` (153,090): ``csep * 2187 + twist``, where ``csep`` (0..69) says which four of
  the eight corner slots hold the U corners. The 16 symmetries of the U-D axis split it into
  9,930 classes (nxopt's count; a test checks it);
- ``edge`` (1,013,760): ``flip * 495 + slice``.

Entries: 9,930 x 1,013,760 = 10,066,636,800. A cube's entry is its corner class's row at
the edge coordinate conjugated by the symmetry that takes its corners to the class's
representative. A class whose representative some symmetries fix holds several edge
coordinates of one cube; the build gives them all the same value.

Two bits hold a distance as nxopt's tables do: 0 where it is at most the metric's base
(:data:`BASE`), else ``min(distance - base, 3)``. A 0 says nothing a search can use, so it
falls back on its other lookups; a 3 is a lower bound. Across three axes and a cube's
inverse, a node whose every lookup reads 0 is rare and near the end of the walk.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache
from typing import Final, NamedTuple

import numba
import numpy as np

from ...harness import NUM_MOVES, apply_move, conjugate, to_cubies
from .coords import (
    N_FLIP,
    N_SLICE,
    N_TWIST,
    SOLVED_SLICE,
    _cubies,
    coordinates,
    move_tables,
    twist_of,
)
from .flipslice import UD, UNSEEN, conjugation_tables
from .memory import huge_empty

N_CSEP: Final = 70
N_CORNER: Final = N_CSEP * N_TWIST
N_EDGE: Final = N_FLIP * N_SLICE
N_CORNER_CLASSES: Final = 9930
"""Classes of ``corner`` under the 16 symmetries (nxopt's count; a test checks it)."""
N_ENTRIES: Final = N_CORNER_CLASSES * N_EDGE
BASE: Final = {"htm": 9, "qtm": 10}
"""The distance a 2-bit entry of 0 stands for at most, by metric: the largest with under a
tenth of the entries at it or below (:func:`choose_base`; 3.8% of the entries in face turns,
2.6% in quarter turns)."""

_CSEP_COMBOS: Final = list(itertools.combinations(range(8), 4))
SOLVED_CSEP: Final = _CSEP_COMBOS.index((0, 1, 2, 3))


@cache
def csep_lookup() -> np.ndarray:
    """(256,) int32: ``csep`` of each 8-bit mask of the slots that hold U corners (-1 where
    not four)."""
    by_mask = np.full(256, -1, np.int32)
    for i, slots in enumerate(_CSEP_COMBOS):
        by_mask[sum(1 << s for s in slots)] = i
    return by_mask


def csep_of(cp: np.ndarray) -> np.ndarray:
    """(8, N) corner permutation -> (N,) csep: the index of the slots holding U corners."""
    mask = ((cp < 4).astype(np.int64) << np.arange(8)[:, None]).sum(axis=0)
    return csep_lookup()[mask].astype(np.int64)


def corner_of(states: np.ndarray) -> np.ndarray:
    """(54, N) states -> (N,) ``csep * 2187 + twist``."""
    cp, co, _, _ = to_cubies(states)
    return csep_of(cp) * N_TWIST + twist_of(co)


def _corner_states() -> np.ndarray:
    """(54, 153090) states whose ``corner`` coordinate is the column's index."""
    cp = np.empty((8, N_CSEP), np.uint8)
    for i, slots in enumerate(_CSEP_COMBOS):
        rest = [s for s in range(8) if s not in slots]
        cp[list(slots), i], cp[rest, i] = (0, 1, 2, 3), (4, 5, 6, 7)
    twist = np.arange(N_TWIST)
    digits = (twist[None, :] // (3 ** np.arange(6, -1, -1))[:, None]) % 3
    co = np.vstack([digits, (-digits.sum(axis=0)) % 3]).astype(np.uint8)
    return _cubies(cp=np.repeat(cp, N_TWIST, axis=1), co=np.tile(co, N_CSEP))


class Corners(NamedTuple):
    """The ``corner`` coordinate's moves and its symmetry classes."""

    move: np.ndarray  # (153090, 18) int32
    cls: np.ndarray  # (153090,) int32: value -> its class
    sym: np.ndarray  # (153090,) int32: value -> j with conj by UD[j] its representative
    reps: np.ndarray  # (9930,) int32: class -> its representative
    stab: np.ndarray  # (9930,) int32: bit j set where UD[j] fixes the representative
    words: np.ndarray  # (153090,) uint32: class << 4 | sym, what a search reads


@cache
def corners() -> Corners:
    """Moves and classes of ``corner`` (a few seconds to derive from the engine)."""
    states = _corner_states()
    move = np.empty((N_CORNER, NUM_MOVES), np.int32)
    for m in range(NUM_MOVES):
        move[:, m] = corner_of(apply_move(states, m))
    conj = np.empty((N_CORNER, 16), np.int32)
    for j, k in enumerate(UD):
        conj[:, j] = corner_of(conjugate(states, int(k)))
    cls, sym, reps, stab = _classes(conj, conjugation_tables().inverse)
    words = (cls.astype(np.uint32) << 4) | sym.astype(np.uint32)
    return Corners(move, cls, sym, reps, stab, words)


@numba.njit(cache=True)
def _classes(conj, inverse):  # pragma: no cover - compiled
    n_values = conj.shape[0]
    cls = np.full(n_values, -1, np.int32)
    sym = np.zeros(n_values, np.int32)
    reps = np.empty(n_values, np.int32)
    stab = np.zeros(n_values, np.int32)
    n = 0
    for x in range(n_values):
        if cls[x] >= 0:
            continue
        reps[n] = x
        for j in range(16):
            y = conj[x, j]
            if cls[y] < 0:
                cls[y] = n
                sym[y] = inverse[j]  # conjugating y by UD[inverse[j]] gives x back
            if y == x:
                stab[n] |= 1 << j
        n += 1
    return cls, sym, reps[:n].copy(), stab[:n].copy()


class Edges(NamedTuple):
    """How moves and the 16 symmetries act on ``edge = flip * 495 + slice``."""

    flip_move: np.ndarray  # (2048, 18) int32
    slice_move: np.ndarray  # (495, 18) int32
    flip_conj: np.ndarray  # (2048, 16) int32: the permutation of edge orientations alone
    slice_conj: np.ndarray  # (495, 16) int32
    mask: np.ndarray  # (495, 16) int32: the flips the slice edges' places add


@cache
def edges() -> Edges:
    """The edge coordinate's tables, from Kociemba's (:mod:`.flipslice`): the flips a
    symmetry adds depend on where the slice edges stand, not on their order."""
    c, mv = conjugation_tables(), move_tables()
    by_slice = np.arange(N_SLICE) * 24
    return Edges(mv["flip"], mv["slice"], c.flip, c.sorted[by_slice] // 24, c.mask[by_slice].copy())


@numba.njit(cache=True, inline="always")
def conjugate_edge(f, s, k, flip_conj, slice_conj, mask):  # pragma: no cover - compiled
    """``edge`` of the conjugate by ``UD[k]`` of a cube with flip ``f`` and slice ``s``."""
    return (flip_conj[f, k] ^ mask[s, k]) * N_SLICE + slice_conj[s, k]


@numba.njit(cache=True, parallel=True)
def _level(  # pragma: no cover - compiled
    table, n_flip, reps, c_move, c_cls, c_sym, c_stab, e, moves, depth, fwd
):
    """One breadth-first level over the corner classes: forward from the entries at
    ``depth``, or backward, giving ``depth + 1`` to the unseen entries with a neighbour at
    ``depth``. ``n_flip`` is 2048, or 1 for the flipless table the tests build (its edge
    coordinate the slice alone).

    A class's row (a megabyte) is read once for the entries it has at ``depth`` (or
    unseen), then the moves are taken one at a time over that list, so each move writes
    (or reads) one other row and both stay in the cache. Two threads may write the same
    value to one entry."""
    flip_move, slice_move, flip_conj, slice_conj, mask = e
    n_edge = n_flip * N_SLICE
    wanted = depth if fwd else UNSEEN
    for c in numba.prange(reps.size):
        base = c * n_edge
        n = 0
        for i in range(n_edge):
            if table[base + i] == wanted:
                n += 1
        if n == 0:
            continue
        todo = np.empty(n, np.int32)
        n = 0
        for i in range(n_edge):
            if table[base + i] == wanted:
                todo[n] = i
                n += 1
        fc = np.empty(n_flip, np.int32)
        sc = np.empty(N_SLICE, np.int32)
        sm = np.empty(N_SLICE, np.int32)
        for m in moves:
            y = c_move[reps[c], m]
            to_cls = c_cls[y]
            to_base = np.int64(to_cls) * n_edge
            k = c_sym[y]
            fixed = c_stab[to_cls]
            for f in range(n_flip):
                fc[f] = flip_conj[flip_move[f, m], k]
            for s in range(N_SLICE):
                s2 = slice_move[s, m]
                sc[s], sm[s] = slice_conj[s2, k], mask[s2, k]
            kept = 0
            for q in range(n):
                i = todo[q]
                f, s = divmod(i, N_SLICE)
                there = to_base + (fc[f] ^ sm[s]) * N_SLICE + sc[s]
                if fwd:
                    if table[there] == UNSEEN:
                        table[there] = depth + 1
                        if fixed > 1:  # the same cube's other edge values in the class
                            f3, s3 = divmod(there - to_base, N_SLICE)
                            for j in range(1, 16):
                                if fixed >> j & 1:
                                    other = to_base + conjugate_edge(
                                        f3, s3, j, flip_conj, slice_conj, mask
                                    )
                                    table[other] = depth + 1
                elif table[there] == depth:
                    table[base + i] = depth + 1
                else:
                    todo[kept] = i
                    kept += 1
            if not fwd:
                n = kept
                if n == 0:
                    break


@numba.njit(cache=True, parallel=True)
def _histogram(table):  # pragma: no cover - compiled
    chunks = 256
    step = (table.size + chunks - 1) // chunks
    counts = np.zeros((chunks, 256), np.int64)
    for c in numba.prange(chunks):
        for i in range(c * step, min(table.size, (c + 1) * step)):
            counts[c, table[i]] += 1
    return counts.sum(axis=0)


def histogram(table: np.ndarray) -> np.ndarray:
    """(256,) int64: how many entries hold each byte value (255: unseen)."""
    return _histogram(table)


def entry_of(states: np.ndarray) -> np.ndarray:
    """(54, N) states -> (N,) int64: each one's entry in the table (what the search's lookup
    computes, for tests and inspection)."""
    c, e = corners(), edges()
    corner = corner_of(states)
    coords = coordinates(states, ("flip", "slice"))
    k = c.sym[corner]
    edge = conjugate_edge(coords["flip"], coords["slice"], k, e.flip_conj, e.slice_conj, e.mask)
    return c.cls[corner].astype(np.int64) * N_EDGE + edge


def code_at(packed: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The 2-bit codes of a packed table at ``index`` (:func:`pack`)."""
    return (packed[index >> 2] >> ((index & 3) << 1)) & 3


def edge_tables(flips: bool = True) -> Edges:
    """The edge tables, or with ``flips=False`` those of the slice alone (flip always 0)."""
    e = edges()
    if flips:
        return e
    zero = np.zeros((1, 16), np.int32)
    return Edges(np.zeros((1, NUM_MOVES), np.int32), e.slice_move, zero, e.slice_conj, e.mask * 0)


def start_table(flips: bool = True) -> np.ndarray:
    """Every entry unseen but the solved cube's, which is 0."""
    c = corners()
    n_edge = (N_FLIP if flips else 1) * N_SLICE
    table = huge_empty(c.reps.size * n_edge, np.uint8)
    table.fill(UNSEEN)
    solved_corner = SOLVED_CSEP * N_TWIST
    e = edge_tables(flips)
    k = int(c.sym[solved_corner])
    edge = (e.flip_conj[0, k] ^ e.mask[SOLVED_SLICE, k]) * N_SLICE + e.slice_conj[SOLVED_SLICE, k]
    table[int(c.cls[solved_corner]) * n_edge + int(edge)] = 0
    return table


def level(table: np.ndarray, moves: np.ndarray, depth: int, forward: bool, flips: bool) -> None:
    """One breadth-first level of the table (:func:`_level`)."""
    c, e = corners(), edge_tables(flips)
    n_flip = N_FLIP if flips else 1
    _level(table, n_flip, c.reps, c.move, c.cls, c.sym, c.stab, e, moves, depth, forward)


def build(
    moves: np.ndarray, flips: bool = True, progress: Callable[[int, np.ndarray], None] | None = None
) -> np.ndarray:
    """The byte table (a distance an entry) by breadth-first search from solved over
    ``moves``: a level forward from its newest entries while they are few beside the unseen
    ones, else backward from the unseen ones. ``progress(depth, counts)`` after each level
    (counts: :func:`histogram`)."""
    table = start_table(flips)
    counts = histogram(table)
    depth = 0
    while counts[UNSEEN]:
        level(table, moves, depth, 3 * int(counts[depth]) < int(counts[UNSEEN]), flips)
        now = histogram(table)
        if now[UNSEEN] == counts[UNSEEN]:
            raise RuntimeError(f"dense table: {int(now[UNSEEN])} entries unreachable")
        counts, depth = now, depth + 1
        if progress:
            progress(depth, counts)
    return table


@numba.njit(cache=True, parallel=True)
def _pack(table, base):  # pragma: no cover - compiled
    n_out = (table.size + 3) // 4
    out = np.zeros(n_out, np.uint8)
    for b in numba.prange(n_out):
        byte = 0
        for q in range(4):
            i = 4 * b + q
            if i < table.size:
                v = np.int64(table[i])
                code = 0 if v <= base else min(v - base, 3)
                byte |= code << (2 * q)
        out[b] = byte
    return out


def choose_base(counts: np.ndarray) -> int:
    """The largest distance with under a tenth of the entries at it or below: what a 0
    stands for (:data:`BASE` records each metric's; a build checks it)."""
    share = np.cumsum(counts[:UNSEEN]) / counts[:UNSEEN].sum()
    return int(np.flatnonzero(share < 0.1)[-1])


def pack(table: np.ndarray, metric: str, base: int | None = None) -> np.ndarray:
    """Four entries a byte (entry ``i`` in bits ``2 (i % 4)`` of byte ``i // 4``), each
    0 for a distance at most the metric's :data:`BASE`, else the distance above it, at most
    3. Refused where the table's distribution calls for another base."""
    if base is None:
        base, chosen = BASE[metric], choose_base(histogram(table))
        if chosen != base:
            raise RuntimeError(f"dense table in {metric}: base {chosen}, not {base}")
    return _pack(table, base)


def unpack(packed: np.ndarray, size: int) -> np.ndarray:
    """The 2-bit codes of a packed table, one a byte (for tests and inspection)."""
    out = np.empty(packed.size * 4, np.uint8)
    for q in range(4):
        out[q::4] = (packed >> (2 * q)) & 3
    return out[:size]
