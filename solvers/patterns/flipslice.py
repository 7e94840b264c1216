"""Flip and sorted slice together, reduced by the 16 symmetries that keep the U-D axis.

Kociemba's optimal solver bounds a cube by its distance to the set where corners and edges
are oriented and the four U-D slice edges stand home in order: coordinates ``twist`` (2187) x
``flip`` (2048) x ``sorted`` (11880), 53 billion entries. Conjugating a cube by one of the 16
symmetries of D4h (those keeping the U-D axis) keeps that distance, so ``flip x sorted``
(24,330,240 values) is split into classes of conjugates, and the table holds each class's
representative with all 2187 twists: 1,523,864 classes x 2187 = 3.3 billion entries.

A cube's entry: ``c = CLASS[flipslice]``, ``k = SYM[flipslice]`` (the symmetry taking it to its
class representative), the representative's twist ``TWIST_CONJ[twist, k]``, entry
``c * 2187 + that``. A class whose representative some symmetries fix holds several twists of
one cube; the table gives them all the same value (``STABILIZER``).

Everything is derived from the harness's sticker-level symmetries
(:func:`~cubebench.harness.cube.symmetry.conjugate`): the conjugate of a ``flip x sorted``
value splits into a permutation of the edge orientations and a flip mask that depends on where
the slice edges stand; :func:`conjugation_tables` derives both and a test checks the split on
random cubes.
"""

from __future__ import annotations

from functools import cache
from typing import Final, NamedTuple

import numba
import numpy as np

from ...harness import GROUPS, NUM_MOVES, apply_sequence, conjugate
from .coords import (
    N_FLIP,
    N_SORTED,
    N_TWIST,
    SOLVED_SORTED,
    _flip_states,
    _sorted_states,
    _twist_states,
    coordinates,
    move_tables,
    with_parity,
)
from .memory import on_huge_pages

UD: Final = np.asarray(GROUPS["ud"])
"""The 16 symmetries keeping the U-D axis (indices into the harness's 48), identity first."""
N_FLIPSLICE: Final = N_FLIP * N_SORTED
N_CLASSES: Final = 1_523_864
"""Classes of ``flip x sorted`` under the 16 symmetries (Kociemba's count; a test checks it)."""


class Conjugation(NamedTuple):
    """How the 16 symmetries act on the coordinates (each indexed ``[value, j]`` for
    symmetry ``UD[j]``)."""

    twist: np.ndarray  # (2187, 16) int32
    sorted: np.ndarray  # (11880, 16) int32
    flip: np.ndarray  # (2048, 16) int32: the permutation of edge orientations alone
    mask: np.ndarray  # (11880, 16) int32: the flips the slice edges' places add
    inverse: np.ndarray  # (16,) int64: j -> the j' with UD[j'] undoing UD[j]


@cache
def conjugation_tables() -> Conjugation:
    """The conjugation tables (a second to derive)."""
    twist = np.empty((N_TWIST, 16), np.int32)
    sort = np.empty((N_SORTED, 16), np.int32)
    flip = np.empty((N_FLIP, 16), np.int32)
    mask = np.empty((N_SORTED, 16), np.int32)
    twists, flips, sorts = _twist_states(), _flip_states(), _sorted_states()
    for j, k in enumerate(UD):
        twist[:, j] = coordinates(conjugate(twists, k), ("twist",))["twist"]
        conj = coordinates(conjugate(sorts, k), ("flip", "sorted"))
        sort[:, j], mask[:, j] = conj["sorted"], conj["flip"]
        flip[:, j] = coordinates(conjugate(flips, k), ("flip",))["flip"]
    flip ^= mask[SOLVED_SORTED][None, :]  # what the home slice adds is in the mask
    probe = apply_sequence(np.asarray(sorts[:, SOLVED_SORTED]), [0, 3, 6, 10, 13, 16])
    inverse = np.array(
        [
            next(
                i for i, k2 in enumerate(UD) if (conjugate(conjugate(probe, k), k2) == probe).all()
            )
            for k in UD
        ]
    )
    return Conjugation(twist, sort, flip, mask, inverse)


@numba.njit(cache=True, inline="always")
def conjugate_flipslice(x, j, flip, sort, mask):  # pragma: no cover - compiled
    """``flip * 11880 + sorted`` of the conjugate by ``UD[j]``."""
    f, s = divmod(x, N_SORTED)
    return (flip[f, j] ^ mask[s, j]) * N_SORTED + sort[s, j]


@numba.njit(cache=True)
def _classes(flip, sort, mask, inverse):  # pragma: no cover - compiled
    cls = np.full(N_FLIPSLICE, -1, np.int32)
    sym = np.zeros(N_FLIPSLICE, np.uint8)
    reps = np.empty(N_FLIPSLICE // 8, np.int32)
    stab = np.zeros(N_FLIPSLICE // 8, np.uint16)
    n = 0
    for x in range(N_FLIPSLICE):
        if cls[x] >= 0:
            continue
        reps[n] = x
        for j in range(16):
            y = conjugate_flipslice(x, j, flip, sort, mask)
            if cls[y] < 0:
                cls[y] = n
                sym[y] = inverse[j]  # conjugating y by UD[inverse[j]] gives x back
            if y == x:
                stab[n] |= np.uint16(1 << j)
        n += 1
    return cls, sym, reps[:n].copy(), stab[:n].copy()


class Classes(NamedTuple):
    """The symmetry classes of ``flip x sorted``: what the table's build reads; a search
    reads the two first arrays packed into one (:func:`packed`)."""

    cls: np.ndarray  # (24330240,) int32: value -> its class
    sym: np.ndarray  # (24330240,) uint8: value -> j with conj by UD[j] its representative
    reps: np.ndarray  # (n_classes,) int32: class -> its representative value
    stab: np.ndarray  # (n_classes,) uint16: bit j set where UD[j] fixes the representative


@cache
def classes() -> Classes:
    """The classes (a few seconds to compute, deterministic); the two arrays read at every
    lookup lie on huge pages (:mod:`.memory`)."""
    c = conjugation_tables()
    cls, sym, reps, stab = _classes(c.flip, c.sorted, c.mask, c.inverse)
    return Classes(on_huge_pages(cls), on_huge_pages(sym), reps, stab)


SYM_BITS: Final = 4
"""Low bits of a :func:`packed` word that hold the symmetry (16 of them)."""
SYM_MASK: Final = (1 << SYM_BITS) - 1


@cache
def packed() -> np.ndarray:
    """(24330240,) uint32 on huge pages: ``class << 4 | symmetry`` of each ``flip x sorted``
    value. A search's lookup then reads one word where two arrays cost it two cache misses
    (the class needs 21 bits, so both fit)."""
    c = conjugation_tables()
    cls, sym, _, _ = _classes(c.flip, c.sorted, c.mask, c.inverse)  # not kept: 121 MB
    return on_huge_pages(cls.astype(np.uint32) << SYM_BITS | sym)


assert NUM_MOVES == 18 and len(UD) == 16


UNSEEN: Final = 255
"""A table entry no breadth-first level has reached yet."""


@numba.njit(cache=True, parallel=True)
def _level(  # pragma: no cover - compiled
    table, reps, cls, sym, stab, flip_mv, sort_mv, twist_mv, twist_conj, moves, depth, fwd
):
    """One breadth-first level over the classes: forward from the entries at ``depth``, or
    backward, giving ``depth + 1`` to the unseen entries with a neighbour at ``depth``. A class
    and a move lead to one class for all its twists, so the reads stay in two blocks. The
    twist coordinate is whatever ``twist_mv`` moves: the twist (2187), or the twist and the
    corner parity (4374, :func:`.coords.with_parity`)."""
    nt = twist_mv.shape[0]
    for c in numba.prange(reps.size):
        base = c * nt
        wanted = depth if fwd else UNSEEN
        found = False
        for t in range(nt):
            if table[base + t] == wanted:
                found = True
                break
        if not found:
            continue
        f, s = divmod(reps[c], N_SORTED)
        for m in moves:
            y = flip_mv[f, m] * N_SORTED + sort_mv[s, m]
            c2, k = cls[y], sym[y]
            base2, fixed = c2 * nt, stab[c2]
            for t in range(nt):
                if table[base + t] != wanted:
                    continue
                t2 = twist_conj[twist_mv[t, m], k]
                if fwd:
                    if table[base2 + t2] == UNSEEN:
                        table[base2 + t2] = depth + 1
                        for j in range(1, 16):  # the same cube's other twists in the class
                            if fixed >> j & 1:
                                t3 = twist_conj[t2, j]
                                if table[base2 + t3] == UNSEEN:
                                    table[base2 + t3] = depth + 1
                elif table[base2 + t2] == depth:
                    table[base + t] = depth + 1


def _twist_tables(parity: bool) -> tuple[np.ndarray, np.ndarray]:
    """The move and conjugation tables of the twist, or of the twist and the corner parity."""
    twist_mv, twist_conj = move_tables()["twist"], conjugation_tables().twist
    return with_parity(twist_mv, twist_conj) if parity else (twist_mv, twist_conj)


def start_table(parity: bool = False) -> np.ndarray:
    """(n_classes * 2187,) uint8 (twice that with ``parity``): every entry unseen but the
    solved cube's, which is 0 (flip 0, twist 0, parity even: the solved value is 0 either way)."""
    cl, conj = classes(), conjugation_tables()
    n_twist = N_TWIST * (2 if parity else 1)
    table = np.full(cl.reps.size * n_twist, UNSEEN, np.uint8)
    twist = conj.twist[0, cl.sym[SOLVED_SORTED]] * (2 if parity else 1)
    table[cl.cls[SOLVED_SORTED] * n_twist + twist] = 0
    return table


def level(
    table: np.ndarray, moves: np.ndarray, depth: int, forward: bool, parity: bool = False
) -> None:
    """One breadth-first level of the table over ``moves`` (:func:`_level`)."""
    cl, mv = classes(), move_tables()
    by_class = (cl.reps, cl.cls, cl.sym, cl.stab)
    twist_mv, twist_conj = _twist_tables(parity)
    _level(table, *by_class, mv["flip"], mv["sorted"], twist_mv, twist_conj, moves, depth, forward)
