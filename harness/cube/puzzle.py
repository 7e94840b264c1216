"""A puzzle as a value: the 2×2×2, 3×3×3 and 4×4×4 described by one immutable object.

A :class:`Puzzle` carries everything that differs between cube sizes — its stickers and
solved state, its moves' names and gather tables, its metrics, its notation and how a
solution's length is counted — so code that takes a puzzle works on any of them. Moves are
ids into :attr:`Puzzle.move_names`, in one fixed order per puzzle:

- ``cube2``, ``cube3``: the 18 face turns ``U U2 U' R R2 R' … B B2 B'`` (the 3×3×3's ids
  are the engine's, :data:`~cubebench.harness.cube.moves.MOVE_NAMES`).
- ``cube4``: those 18 outer turns, then the 18 wide turns ``Uw Uw2 Uw' … Bw'`` (the two
  outer layers, WCA notation), then the 18 inner-slice turns ``2U 2U2 2U' … 2B'`` (the
  second layer alone, the notation of ``magiccube`` and SiGN).

Metrics: ``htm`` counts every face turn (and on the 4×4×4 every wide turn) as one move;
``qtm`` counts quarter turns of one layer (on the 4×4×4 the 24 layer turns CayleyPy uses:
outer and inner slices), so a half turn is two and a wide quarter turn is two. A length is
counted on runs of moves on one axis merged, since they commute: ``U D U`` is two face
turns. The 2×2×2 and 4×4×4 have no fixed centres, so a turn of a whole axis (``R L'`` on the
2×2×2) is a cube rotation and costs nothing, and a state is solved when every face shows
one colour.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np

from ..errors import InputError
from ..naming import did_you_mean
from . import notation
from .layers import FACES, turn_permutation

_AMOUNTS: Final = ("", "2", "'")
_PRIMES: Final = ("\u2019", "\u2032")  # typographic primes word processors write for '


class PuzzleError(InputError):
    """A puzzle name that is not one of the built-in cubes."""


@dataclass(frozen=True, eq=False)
class Puzzle:
    """One cube size's stickers, moves, metrics and notation.

    Attributes:
        name: ``cube2``, ``cube3`` or ``cube4``: what suites, records and solvers name.
        size: N of the N×N×N.
        move_names: the name of each move id.
        tables: (moves, stickers) gather tables: move ``m`` is ``state[tables[m]]``.
        inverse: (moves,) the id of the move that undoes each move.
        layer_turns: (moves, 3, N) quarter turns each move gives each layer of each axis
            (axis 0 counted from U, 1 from R, 2 from F), mod 4.
        metrics: metric name -> the move ids a search in that metric generates.
        fixed_centres: whether the centres stay put (3×3×3) or the cube may turn whole.
    """

    name: str
    size: int
    move_names: tuple[str, ...]
    tables: np.ndarray
    inverse: np.ndarray
    layer_turns: np.ndarray
    metrics: Mapping[str, tuple[int, ...]]
    fixed_centres: bool

    @property
    def num_stickers(self) -> int:
        return 6 * self.size * self.size

    @property
    def num_moves(self) -> int:
        return len(self.move_names)

    @property
    def solved(self) -> np.ndarray:
        """(6 N²,) uint8: face ``f``'s stickers all show colour ``f``."""
        return np.repeat(np.arange(6, dtype=np.uint8), self.size * self.size)

    def apply(self, states: np.ndarray, moves: Sequence[int]) -> np.ndarray:
        """Apply one move sequence to a (S,) state or a sticker-major (S, N) batch."""
        out = np.asarray(states)
        for move in moves:
            out = out[self.tables[move]]
        return out

    def is_solved(self, states: np.ndarray) -> np.ndarray:
        """(S, N) -> (N,) bool (or a (S,) state -> bool): every face shows one colour."""
        faces = np.asarray(states).reshape(6, self.size * self.size, -1)
        return np.squeeze((faces == faces[:, :1]).all(axis=(0, 1)))

    def parse_moves(self, text: str) -> list[int]:
        """``"R U2 Fw'"`` -> move ids; one line naming the first bad token and its place."""
        if self.name == "cube3":  # the engine's parser, with its hints for the 3×3×3
            return notation.parse_moves(text)
        ids = _name_ids(self)
        moves = []
        for position, token in enumerate(text.split(), start=1):
            spelled = token
            for prime in _PRIMES:
                spelled = spelled.replace(prime, "'")
            if spelled.endswith("2'"):
                spelled = spelled[:-1]
            move = ids.get(spelled)
            if move is None:
                shown = token if len(token) <= 20 else token[:20] + "…"
                hint = did_you_mean(spelled, list(ids))
                raise notation.NotationError(
                    f"bad move {shown!r} at position {position}: not a {self.name} move; {hint}"
                )
            moves.append(move)
        return moves

    def format_moves(self, moves: Sequence[int]) -> str:
        return " ".join(self.move_names[m] for m in moves)

    def length(self, moves: Sequence[int], metric: str) -> int:
        """The length of ``moves`` in ``metric``, on runs of one axis merged (module doc)."""
        table = _block_lengths(self, metric)
        steps = _move_steps(self)
        blocks: list[tuple[int, tuple[int, ...]]] = []  # (axis, layer turns mod 4)
        for move in moves:
            axis, turns = steps[move]
            if blocks and blocks[-1][0] == axis:
                vector = tuple((a + b) & 3 for a, b in zip(blocks[-1][1], turns, strict=True))
                blocks.pop()
            else:
                vector = turns
            if any(vector):  # a block that undoes itself lets its neighbours meet
                blocks.append((axis, vector))
        return sum(int(table[_key(vector)]) for _, vector in blocks)


def _key(vector: Sequence[int] | np.ndarray) -> int:
    """A layer-turn vector (quarter turns of each layer, mod 4) as an index into 4^N."""
    return int(sum(int(t) << (2 * i) for i, t in enumerate(vector)))


@cache
def _name_ids(puzzle: Puzzle) -> dict[str, int]:
    return {name: i for i, name in enumerate(puzzle.move_names)}


@cache
def _move_steps(puzzle: Puzzle) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Each move's axis and its layer turns on that axis, as plain ints: :meth:`Puzzle.length`
    merges them move by move, where numpy's per-call cost would dwarf the arithmetic."""
    out = []
    for turns in puzzle.layer_turns:
        axis = int(np.flatnonzero(turns.any(axis=1))[0])
        out.append((axis, tuple(int(t) for t in turns[axis])))
    return tuple(out)


@cache
def _block_lengths(puzzle: Puzzle, metric: str) -> np.ndarray:
    """(4^N,) fewest of ``metric``'s moves on one axis that give each layer-turn vector
    (indexed by :func:`_key`), up to a turn of the whole axis where the cube may rotate;
    a breadth-first search over the 4^N vectors, the same for every axis by symmetry."""
    if metric not in puzzle.metrics:
        raise PuzzleError(f"metric {metric!r}: {puzzle.name} has {', '.join(puzzle.metrics)}")
    n = puzzle.size
    vectors = np.array(list(itertools.product(range(4), repeat=n)))[:, ::-1]  # (4^N, N)
    keys = (vectors << (2 * np.arange(n))).sum(axis=1)
    order = np.argsort(keys)
    vectors = vectors[order]  # row k is the vector with key k
    steps = [puzzle.layer_turns[m][0] for m in puzzle.metrics[metric]]
    steps = [s for s in steps if s.any()]
    best = np.full(4**n, -1, dtype=np.int64)
    best[0], frontier, depth = 0, [0], 0
    while frontier:
        depth += 1
        reached = {_key((vectors[k] + s) % 4) for k in frontier for s in steps}
        frontier = [k for k in reached if best[k] < 0]
        best[frontier] = depth
    unreachable = np.iinfo(np.int64).max // 4
    best[best < 0] = unreachable
    if puzzle.fixed_centres:
        return best
    return np.array([min(best[_key((v - shift) % 4)] for shift in range(4)) for v in vectors])


def _axis_vector(n: int, face: str, layers: tuple[int, ...], amount: int) -> np.ndarray:
    """(3, N) layer turns of turning ``layers`` of ``face`` by ``amount`` quarter turns."""
    index = FACES.index(face)
    axis, opposite = index % 3, index >= 3
    out = np.zeros((3, n), dtype=np.int64)
    for layer in layers:
        if opposite:  # clockwise seen from D is anticlockwise seen from U
            out[axis, n - layer] = (-amount) % 4
        else:
            out[axis, layer - 1] = amount
    return out


def _build(name: str, n: int, kinds: Sequence[tuple[str, tuple[int, ...]]]) -> Puzzle:
    names, tables, turns = [], [], []
    for prefix_of, layers in kinds:
        for face in FACES:
            quarter = turn_permutation(n, face, layers)
            perm = np.arange(quarter.size)
            for amount, suffix in enumerate(_AMOUNTS, start=1):
                perm = perm[quarter]
                names.append(prefix_of.format(face=face) + suffix)
                tables.append(perm)
                turns.append(_axis_vector(n, face, layers, amount))
    table = np.array(tables, dtype=np.intp)
    ids = np.arange(len(names))
    inverse = ids - ids % 3 + (2 - ids % 3)
    quarters = tuple(int(m) for m in ids if m % 3 != 1)
    metrics: dict[str, tuple[int, ...]] = {"htm": tuple(range(18)), "qtm": quarters}
    if n == 4:  # face and wide turns; the 24 layer quarter turns (outer and inner slices)
        metrics = {"htm": tuple(range(36)), "qtm": tuple(m for m in quarters if not 18 <= m < 36)}
    layer_turns = np.array(turns)
    for array in (table, inverse, layer_turns):
        array.setflags(write=False)
    return Puzzle(name, n, tuple(names), table, inverse, layer_turns, metrics, n == 3)


@cache
def puzzle(name: str) -> Puzzle:
    """The puzzle called ``name``; a one-line error with the nearest names otherwise."""
    if name == "cube2":
        return _build(name, 2, [("{face}", (1,))])
    if name == "cube3":
        return _build(name, 3, [("{face}", (1,))])
    if name == "cube4":
        return _build(name, 4, [("{face}", (1,)), ("{face}w", (1, 2)), ("2{face}", (2,))])
    raise PuzzleError(f"puzzle {name!r}: {did_you_mean(name, list(PUZZLES))}")


PUZZLES: Final = ("cube2", "cube3", "cube4")
DEFAULT_PUZZLE: Final = "cube3"
"""Every suite, record and solver that names no puzzle is on the 3×3×3."""


def puzzle_of_facelets(facelets: str) -> str:
    """The puzzle a facelet string's length says: 24 letters cube2, 96 cube4, else cube3
    (whose checks then name a wrong length)."""
    return puzzle_of_stickers(len(facelets.strip()))


def puzzle_of_meta(meta: Mapping[str, object]) -> str:
    """The puzzle a suite's registry meta names; ``cube3`` where it names none, so every
    suite, run and record from before other sizes existed keeps its meaning and hash."""
    return str(meta.get("puzzle", DEFAULT_PUZZLE))


def puzzle_of_stickers(stickers: int) -> str:
    """The puzzle whose states have ``stickers`` stickers (24, 54, 96): what a solver of
    several sizes reads off the state it is given."""
    return {24: "cube2", 96: "cube4"}.get(stickers, DEFAULT_PUZZLE)
